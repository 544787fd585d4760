import { expandParameter } from './parameter-expansion.js';
import { child, items, nodeType, type GoNode } from './syntax-tree.js';

/** A word of a command as the gate reads it: a path, a pattern, or something it cannot know. */
export interface ShellWord {
  /** The word as a path or pattern: text as the shell would produce it, unknown parts as `*`. */
  text: string;
  /** No expansion left: the shell passes exactly `text`. */
  literal: boolean;
  /** The shell (or an unknown part) may turn it into several paths: `text` is a glob. */
  glob: boolean;
  /** Begins with an unknown part ($VAR, $(…)): nothing says where it points. */
  unanchored: boolean;
}

/**
 * Variables whose value is known: HOME and FLEET_HOME (so `$HOME/x` is a path), those the command
 * sets, a for loop's variable (bound to the words it iterates over: a pattern when there are
 * several), and the positional parameters and arrays (parameter-expansion.ts).
 */
export type KnownVariables = Readonly<Record<string, string | ShellWord>>;

const GLOB_CHARS = /[*?[{]/;

/** A word that stands for exactly `text`. */
export function literalWord(text: string): ShellWord {
  return { text, literal: true, glob: false, unanchored: false };
}

/** Reads a syntax Word; unknown parts ($VAR, $(…), arithmetic) become `*`. */
export function readWord(word: GoNode, known: KnownVariables): ShellWord {
  const out = { text: '', literal: true, glob: false, unanchored: false };
  readParts(items(word, 'Parts'), known, out, false);
  return out;
}

function readParts(parts: GoNode[], known: KnownVariables, out: ShellWord, quoted: boolean): void {
  let value: ShellWord | undefined;
  for (const part of parts) {
    const type = nodeType(part);
    if (type === 'Lit') {
      let value = part.Value as string;
      if (!quoted && out.text === '' && (value === '~' || value.startsWith('~/')) && known.HOME !== undefined) value = known.HOME + value.slice(1);
      if (!quoted && GLOB_CHARS.test(value)) out.glob = true;
      // Inside double quotes a backslash escapes only \\ " $ ` (and a newline); outside, any character.
      out.text += quoted ? value.replace(/\\([\\"$`\n])/g, '$1') : value.replace(/\\(.)/g, '$1');
    } else if (type === 'SglQuoted') {
      out.text += part.Dollar ? ansiC(part.Value as string) : (part.Value as string);
    } else if (type === 'DblQuoted') {
      readParts(items(part, 'Parts'), known, out, true);
    } else if (type === 'ParamExp' && (value = expandParameter(part, known, (word) => readWord(word, known))) !== undefined) {
      append(out, value);
    } else if (type === 'CmdSubst' && isPwd(part) && known.PWD !== undefined) {
      append(out, known.PWD); // `ROOT=$(pwd)`
    } else {
      unknown(out);
    }
  }
}

function append(out: ShellWord, value: string | ShellWord): void {
  if (typeof value === 'string') {
    out.text += value;
    return;
  }
  if (out.text === '' && value.unanchored) out.unanchored = true;
  out.text += value.text;
  out.literal &&= value.literal;
  out.glob ||= value.glob;
}

function unknown(out: ShellWord): void {
  if (out.text === '') out.unanchored = true;
  if (!out.text.endsWith('*')) out.text += '*';
  out.literal = false;
  out.glob = true;
}

/** `$(pwd)` (or `` `pwd` ``): nothing but pwd. */
function isPwd(substitution: GoNode): boolean {
  const statements = items(substitution, 'Stmts');
  const command = statements.length === 1 ? child(statements[0]!, 'Cmd') : undefined;
  const args = command && nodeType(command) === 'CallExpr' ? items(command, 'Args') : [];
  const parts = args.length === 1 ? items(args[0]!, 'Parts') : [];
  return parts.length === 1 && nodeType(parts[0]) === 'Lit' && parts[0]!.Value === 'pwd';
}

const C_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/** `$'…'` as bash reads it: backslash escapes (\n, \x69, \151, \u0069, \cA) become the characters they name. */
function ansiC(value: string): string {
  return value.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (whole, escape: string) => {
    const head = escape[0]!;
    // `\x` with no digits is left as written, as bash leaves it.
    if (head === 'x' || head === 'u' || head === 'U') return escape.length === 1 ? whole : String.fromCodePoint(Math.min(parseInt(escape.slice(1), 16), 0x10ffff));
    if (/[0-7]/.test(head)) return String.fromCharCode(parseInt(escape, 8) & 0xff);
    if (head === 'c') return String.fromCharCode(escape.charCodeAt(1) & 0x1f);
    return C_ESCAPES[head] ?? whole;
  });
}

/** Brace expansion yields at most this many words from one (`{a,b}{c,d}…` multiplies). */
const MAX_BRACE_WORDS = 64;

/** Bash's brace expansion of an unquoted `{a,b}`: `cp f{,.bak}` is the two words `f` and `f.bak`. */
export function expandBraces(word: ShellWord): ShellWord[] {
  if (!word.glob || !word.text.includes('{')) return [word];
  const texts = braceTexts(word.text);
  if (texts.length <= 1) return [word];
  return texts.map((text) => {
    const glob = GLOB_CHARS.test(text);
    return { text, literal: !glob, glob, unanchored: word.unanchored && text.startsWith('*') };
  });
}

/** The first `{…}` with a comma at its own level, expanded (its parts in turn), within MAX_BRACE_WORDS. */
function braceTexts(text: string): string[] {
  for (let open = text.indexOf('{'); open >= 0; open = text.indexOf('{', open + 1)) {
    const cuts = [open];
    let depth = 0;
    let close = -1;
    for (let i = open; i < text.length && close < 0; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}' && --depth === 0) close = i;
      else if (text[i] === ',' && depth === 1) cuts.push(i);
    }
    if (close < 0) return [text];
    if (cuts.length === 1) continue;
    const words: string[] = [];
    cuts.push(close);
    for (let c = 0; c + 1 < cuts.length && words.length < MAX_BRACE_WORDS; c++) {
      const variant = text.slice(0, open) + text.slice(cuts[c]! + 1, cuts[c + 1]) + text.slice(close + 1);
      words.push(...braceTexts(variant).slice(0, MAX_BRACE_WORDS - words.length));
    }
    return words;
  }
  return [text];
}
