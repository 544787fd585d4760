// What a command reads on its standard input, as far as the command line tells: a shell reading its
// script there (`cat x.sh | sh`, `echo 'rm a' | bash`, `bash < x.sh`, a here-document), an
// interpreter its program, `patch` and `git apply` their patch.
import type { ShellWord } from './shell-word.js';
import { child, items, nodeType, type GoNode } from './syntax-tree.js';

/** Text the command holds (a here-document, `echo '…' |`), files (`< x`, `cat x |`), or what another command prints (known only once it runs). */
export type Stdin = { text: ShellWord } | { files: ShellWord[] } | { from: string };

/** mvdan/sh's RedirOperator: < reads a file; << <<- <<< are here-documents and here-strings. */
const READ_FILE = 56;
const HEREDOCS = new Set([61, 62, 63]);
const HERE_STRING = 63;

type Read = (word: GoNode) => ShellWord;

/** A statement's stdin: its here-document or here-string, the file `<` opens (the last one wins), else what a pipe feeds it. */
export function stdinOf(statement: GoNode, piped: Stdin | undefined, read: Read): Stdin | undefined {
  let stdin = piped;
  for (const redirect of items(statement, 'Redirs')) {
    const op = redirect.Op as number;
    if (HEREDOCS.has(op)) {
      const text = child(redirect, op === HERE_STRING ? 'Word' : 'Hdoc');
      if (text) stdin = { text: read(text) };
    } else if (op === READ_FILE) {
      const file = child(redirect, 'Word');
      if (file) stdin = { files: [read(file)] };
    }
  }
  return stdin;
}

/**
 * What a statement prints into a pipe: cat's input (its here-document, its files), echo's words,
 * printf's text; anything else is that command's output, unknown before it runs.
 */
export function pipedOutput(statement: GoNode, read: Read): Stdin {
  const command = child(statement, 'Cmd');
  if (!command || nodeType(command) !== 'CallExpr') return { from: 'the output of a compound command' };
  const args = items(command, 'Args').map(read);
  const name = args[0]?.literal ? args[0].text.replace(/.*\//, '') : undefined;
  const operands = args.slice(1);
  const output = { from: `the output of ${name ?? 'a command'}` };
  if (name === 'cat') {
    if (operands.every((word) => word.text === '-')) return stdinOf(statement, undefined, read) ?? output;
    return operands.some((word) => word.text.startsWith('-')) ? output : { files: operands };
  }
  if (name === 'echo') {
    const flags = operands.findIndex((word) => !/^-[neE]+$/.test(word.text));
    const words = flags < 0 ? [] : operands.slice(flags);
    const escapes = operands.slice(0, Math.max(flags, 0)).some((word) => word.text.includes('e'));
    return { text: joined(words, ' ', escapes) };
  }
  if (name === 'printf' && operands.length > 0) {
    const [format, ...values] = operands;
    // `printf 'rm a\n'`, `printf '%s\n' 'rm a' 'rm b'`: a format of its own or one word per line.
    if (values.length === 0 && !format!.text.includes('%')) return { text: joined([format!], '', true) };
    if (/^%s(\\n)?$/.test(format!.text)) return { text: joined(values, format!.text === '%s' ? '' : '\n', false) };
  }
  return output;
}

function joined(words: ShellWord[], separator: string, escapes: boolean): ShellWord {
  const text = words.map((word) => word.text).join(separator);
  return { text: escapes ? text.replace(/\\n/g, '\n').replace(/\\t/g, '\t') : text, literal: words.every((word) => word.literal), glob: false, unanchored: words[0]?.unanchored === true };
}
