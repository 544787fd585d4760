// What a program handed to an interpreter on its command line, stdin or in a script file
// (`python3 -c '…'`, `python3 - <<'EOF'`, `node -e '…'`, `perl -e`, `ruby -e`, `python3 x.py`)
// writes: the files its write calls name with a string, a variable set to one, `Path('…')` or a join
// of strings. Agents edit files this way as often as with `sed -i`. A path the program computes (read
// from a file, a loop) is not seen here; PostToolUse and the watcher still see what changed.
import type { NamedWrite } from './command-writes.js';
import type { ShellWord } from './shell-word.js';

/** The languages whose programs are read. */
export type Language = 'python' | 'javascript' | 'perl' | 'ruby';

/** Where an interpreter's program comes from: a word of its command line, its standard input, or a script file. */
export type ProgramSource = { language: Language } & ({ code: ShellWord | 'stdin' } | { file: ShellWord });

/** Bounds on the work for one program (it may be a 64 KiB here-document): text read, matches looked at (assignments, then calls), characters scanned per match. */
const MAX_PROGRAM_CHARS = 64 * 1024;
const MAX_MATCHES = 256;
const MAX_EXPRESSION_CHARS = 4096;

/** A write call: its name (a regex source), which of its arguments it writes, and for `open` the mode that makes it a write. */
interface WriteCall {
  call: string;
  writes: 'first' | 'second' | 'first-and-second' | 'last';
  whenMode?: RegExp;
}

const PY_WRITE_MODE = /^[rbt]*[wax+]/;
const CALLS: Record<Language, WriteCall[]> = {
  python: [
    { call: '(?:\\bio\\.|\\bcodecs\\.|(?<![.\\w]))open', writes: 'first', whenMode: PY_WRITE_MODE },
    { call: '\\bos\\.(?:remove|unlink|rmdir|removedirs|mkdir|makedirs|truncate|chmod|mkfifo)|\\bshutil\\.rmtree', writes: 'first' },
    { call: '\\bshutil\\.(?:copy|copy2|copyfile|copytree)|\\bos\\.(?:link|symlink)', writes: 'second' },
    { call: '\\bshutil\\.move|\\bos\\.(?:rename|replace|renames)', writes: 'first-and-second' },
  ],
  javascript: [
    { call: '\\b(?:writeFile|appendFile|rm|unlink|rmdir|mkdir|truncate|createWriteStream|chmod|utimes)(?:Sync)?', writes: 'first' },
    { call: '\\b(?:copyFile|cp|symlink|link)(?:Sync)?', writes: 'second' },
    { call: '\\brename(?:Sync)?', writes: 'first-and-second' },
  ],
  perl: [
    // open(FH, '>', 'f') writes its last argument; open(FH, '>f') names the file after the mode.
    { call: '\\bopen', writes: 'last', whenMode: /^(?:\+<|\+?>)/ },
    { call: '\\b(?:unlink|rmdir|mkdir|truncate)', writes: 'first' },
    { call: '\\brename', writes: 'first-and-second' },
  ],
  ruby: [
    { call: '\\bFile\\.(?:write|delete|unlink|truncate|mkfifo)|\\bIO\\.write|\\bFileUtils\\.(?:rm|rm_f|rm_r|rm_rf|rmdir|remove|touch|mkdir|mkdir_p)|\\bDir\\.(?:mkdir|rmdir|delete)', writes: 'first' },
    { call: '\\bFile\\.(?:open|new)', writes: 'first', whenMode: /^[rb]*[wa+]/ },
    { call: '\\bFileUtils\\.(?:cp|cp_r|copy|ln|ln_s|ln_sf|install)|\\bFile\\.(?:symlink|link)', writes: 'second' },
    { call: '\\bFileUtils\\.(?:mv|move)|\\bFile\\.rename', writes: 'first-and-second' },
  ],
};

/** Python's path objects: `Path('x').write_text(…)`, `p.unlink()`, `p.open('w')`, `p.rename(q)` (which writes both). */
// Bounded repetitions: a run of `(` in a 64 KiB program must not make each match attempt scan to its end.
const PY_PATH_METHOD = /((?:pathlib\.)?Path\s*\((?:[^()\n]|\([^()\n]{0,200}\)){0,200}\)|\((?:[^()\n]|\([^()\n]{0,200}\)){0,200}\)|\b[A-Za-z_]\w*)\s*\.\s*(write_text|write_bytes|unlink|touch|mkdir|rmdir|rename|replace|symlink_to|hardlink_to|open)\s*\(/g;

/** Interpreters by command name: the options that give the program, and those that take a value before it. */
const INTERPRETERS: { name: RegExp; language: Language; code: string[]; withValue: string[] }[] = [
  { name: /^python[\d.]*$/, language: 'python', code: ['-c'], withValue: ['-X', '-W', '-Q'] },
  { name: /^(?:node|nodejs)$/, language: 'javascript', code: ['-e', '--eval', '-p', '--print'], withValue: ['-r', '--require', '--import', '--loader', '-C', '--conditions'] },
  { name: /^perl$/, language: 'perl', code: ['-e', '-E'], withValue: ['-I', '-M', '-m'] },
  { name: /^ruby$/, language: 'ruby', code: ['-e'], withValue: ['-I', '-r', '-C', '-E'] },
];

/** The program `argv` hands its interpreter, if it is one: an option's word, the script file it names, else stdin. */
export function programOf(argv: readonly ShellWord[]): ProgramSource | undefined {
  const name = argv[0]?.literal ? argv[0].text.replace(/.*\//, '') : undefined;
  const interpreter = name === undefined ? undefined : INTERPRETERS.find((candidate) => candidate.name.test(name));
  if (!interpreter) return undefined;
  const { language, code, withValue } = interpreter;
  for (let i = 1; i < argv.length; i++) {
    const text = argv[i]!.text;
    // `-e CODE`, or a cluster ending with it: `perl -ne`, `node -pe`, `python3 -Bc`.
    const clustered = /^-[A-Za-z]+$/.test(text) && code.some((option) => option.length === 2 && text.endsWith(option[1]!));
    if (code.includes(text) || clustered) return argv[i + 1] ? { language, code: argv[i + 1]! } : undefined;
    const joined = code.find((option) => option.startsWith('--') && text.startsWith(`${option}=`));
    if (joined) return { language, code: { ...argv[i]!, text: text.slice(joined.length + 1) } };
    if (text === '-') break;
    // `python -m tool` runs a module (analysed as its command); `node script.js` a file the plane reads.
    if (text === '-m') return undefined;
    if (!text.startsWith('-')) return { language, file: argv[i]! };
    if (withValue.includes(text)) i++;
  }
  return { language, code: 'stdin' };
}

/** `#!/bin/sh`, `#!/usr/bin/env bash`, `#! /bin/zsh -e`…: a shell runs the file. */
const SHELL_SHEBANG = /^#!\s*\S*\/(?:env\s+(?:-\S+\s+)*)?(?:ba|da|z|k|a|mk)?sh(?:\s|$)/;

/**
 * What runs a script file, from its start (`head`: its first line at least): the language an
 * interpreter that named it reads (`python3 x.py`); else a shell, for `bash x.sh` and `source`; run
 * by its path, what its `#!` names, or its extension without one. Undefined: a language not read here.
 */
export function scriptLanguage(path: string, head: string, run: { byPath: boolean; language?: Language }): Language | 'shell' | undefined {
  if (run.language) return run.language;
  if (!run.byPath) return 'shell';
  if (!head.startsWith('#!')) return languageOfExtension(path);
  return SHELL_SHEBANG.test(head) ? 'shell' : languageOfShebang(head);
}

/** A file run by its path without `#!` (`uv run x.py`, `./tool`): its extension says what runs it; a shell when it has none of these. */
function languageOfExtension(path: string): Language | 'shell' | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path.replace(/.*\//, ''))?.[1]?.toLowerCase();
  if (extension === undefined || ['sh', 'bash', 'zsh', 'ksh', 'dash'].includes(extension)) return 'shell';
  return ({ py: 'python', js: 'javascript', mjs: 'javascript', cjs: 'javascript', ts: 'javascript', mts: 'javascript', cts: 'javascript', pl: 'perl', pm: 'perl', rb: 'ruby' } as Record<string, Language>)[extension];
}

/** `#!/usr/bin/env python3`, `#!/usr/bin/node`, `#! /usr/bin/perl -w`…: the language whose interpreter the line names. */
function languageOfShebang(firstLine: string): Language | undefined {
  const interpreter = /^#!\s*\S*\/(?:env\s+(?:-\S+\s+)*)?(\S+)/.exec(firstLine)?.[1];
  return interpreter === undefined ? undefined : INTERPRETERS.find((candidate) => candidate.name.test(interpreter))?.language;
}

/** The files `code`'s write calls name, as the interpreter of `language` runs it. */
export function programWrites(language: Language, code: ShellWord, via: string): NamedWrite[] {
  const text = code.text.slice(0, MAX_PROGRAM_CHARS);
  const program = new Program(text, language);
  const found = new Set<string>();
  for (const { call, writes, whenMode } of CALLS[language]) {
    // Perl and Ruby call without parentheses too: `unlink 'x'`, `File.write 'x', s`.
    // One way to each opening (not `\s*` then `[ \t]+`, which backtracks over a run of spaces quadratically).
    const opening = language === 'perl' || language === 'ruby' ? `(?:\\s*(\\()|[ \\t]+(?=['"$]|my\\b))` : '\\s*(\\()';
    for (const match of program.matches(new RegExp(`(?:${call})${opening}`, 'g'))) {
      const args = program.arguments(match.index + match[0].length, match[1] === '(');
      if (whenMode && !program.writesByMode(args, whenMode)) continue;
      const chosen = writes === 'first' ? [args[0]] : writes === 'second' ? [args[1]] : writes === 'last' ? [args.at(-1)] : [args[0], args[1]];
      for (const raw of chosen) for (const path of program.values(program.afterPerlMode(raw), match.index)) found.add(path);
    }
  }
  if (language === 'python') {
    for (const match of program.matches(PY_PATH_METHOD)) {
      const args = program.arguments(match.index + match[0].length, true);
      if (match[2] === 'open' && !program.writesByMode(['', ...args], PY_WRITE_MODE)) continue;
      // `s.replace('a', 'b')` is a string's: only a path object's replace moves a file.
      if (match[2] === 'replace' && !program.isPath(match[1]!)) continue;
      const written = match[2] === 'rename' || match[2] === 'replace' ? [match[1], args[0]] : [match[1]];
      for (const raw of written) for (const path of program.values(raw, match.index)) found.add(path);
    }
  }
  // Unknown parts of the shell word (`$VAR` in a double-quoted program) make its paths patterns.
  return [...found].map((path) => ({ kind: 'path', word: { text: path, literal: code.literal, glob: !code.literal && path.includes('*'), unanchored: path.startsWith('*') }, via }));
}

/** One program's text, the strings its variables are set to, and a budget on the matches read. */
class Program {
  /** Each name's assignments in the order written: where, and the strings it was set to (none: a value not known here). */
  private readonly names = new Map<string, { at: number; values: string[] }[]>();
  /** Names set to a Python path object (`p = Path(…)`, `p = base / 'x'`), whose methods are the path's. */
  private readonly pathNames = new Set<string>();
  private budget = MAX_MATCHES;

  constructor(
    private readonly text: string,
    private readonly language: Language,
  ) {
    // `NAME = 'lit'`, `const NAME =`, `my $NAME =`, `NAME = Path('lit')`. A name starts where no word
    // character is before it (else a long run of them, a hex blob, is read from each of its positions),
    // nor a comma (`f(a, mode='w')`; `a, b = …` is read below).
    // (The lookahead first: a lookbehind tried at every position of a run of spaces would scan back over it each time.)
    for (const match of this.matches(/(?:\b(?:const|let|var|my)\s+)?(?=[$A-Za-z_])(?<![\w$]|,\s*)(\$?[A-Za-z_]\w*)\s*=(?![=~>])\s*/g)) {
      const expression = this.arguments(match.index + match[0].length, false)[0];
      this.assign(match[1]!, match.index, this.values(expression, match.index));
      if (expression !== undefined && this.isPath(expression)) this.pathNames.add(match[1]!);
    }
    // `src, dst = 'a.ts', 'b.ts'` (a statement of its own): each name its own value.
    for (const match of this.matches(/(?:^|\n)[ \t]*((?:[A-Za-z_]\w*[ \t]*,[ \t]*)+[A-Za-z_]\w*)[ \t]*=(?!=)[ \t]*/g)) {
      const targets = match[1]!.split(',').map((name) => name.trim());
      const expressions = this.arguments(match.index + match[0].length, false);
      targets.forEach((name, i) => this.assign(name, match.index, expressions.length === targets.length ? this.values(expressions[i], match.index) : []));
    }
    // `for p in ['a.ts', 'b.ts']:`, `for (const f of ['a', 'b'])`: the loop's name stands for each item.
    for (const match of this.matches(/\bfor\s*\(?\s*(?:const\s+|let\s+|var\s+|my\s+)?(\$?[A-Za-z_]\w*)\s+(?:in|of)\s*[[(]/g)) {
      this.assign(match[1]!, match.index, this.arguments(match.index + match[0].length, true).flatMap((item) => this.values(item, match.index)));
    }
    for (const assignments of this.names.values()) assignments.sort((a, b) => a.at - b.at);
    this.budget = MAX_MATCHES; // the write calls get a budget of their own
  }

  private assign(name: string, at: number, values: string[]): void {
    this.names.set(name, [...(this.names.get(name) ?? []), { at, values }]);
  }

  /**
   * The strings a name stands for at `at`: what its last assignment before it set (`p = 'a'; read(p);
   * p = 'b'; open(p, 'w')` writes b only); used before any assignment (a function's body), each value.
   */
  private valuesOf(name: string, at: number): string[] {
    const assignments = this.names.get(name) ?? [];
    const before = assignments.filter((assignment) => assignment.at < at);
    return before.length > 0 ? before.at(-1)!.values : assignments.flatMap((assignment) => assignment.values);
  }

  *matches(pattern: RegExp): Generator<RegExpExecArray> {
    for (const match of this.text.matchAll(pattern)) {
      if (this.budget-- <= 0) return;
      yield match;
    }
  }

  /** What an argument at `at` stands for: a string, a variable set to strings, `Path(…)`, a join of strings; else nothing known. */
  values(raw: string | undefined, at: number): string[] {
    const expression = raw?.trim() ?? '';
    const string = /^([rbfu]{0,2})(['"`])((?:\\.|(?!\2)[^\\])*)\2$/i.exec(expression);
    if (string) {
      // An f-string's `{…}` and a template's `${…}` are unknown parts: patterns whose fixed parts still say where.
      const interpolated = /f/i.test(string[1]!) || string[2] === '`';
      const text = string[3]!.replace(/\\(.)/g, '$1');
      return [interpolated ? text.replace(/\$?\{[^}]*\}/g, '*') : text];
    }
    if (/^\$?[A-Za-z_]\w*$/.test(expression)) return this.valuesOf(expression, at);
    const parenthesized = /^\(([\s\S]*)\)$/.exec(expression);
    if (parenthesized) return this.values(parenthesized[1], at);
    const call = /^((?:pathlib\.)?(?:Path|PurePath)|os\.path\.(?:join|abspath)|path\.(?:join|resolve)|File\.join)\s*\(/.exec(expression);
    // `Path('x').read_text()` is the file's text, not a path: the call must be the whole expression.
    if (call && closingParen(expression, call[0].length - 1) === expression.length - 1) return this.joined(this.arguments(call[0].length, true, expression), at);
    // `Path('src') / 'x.ts'`: Python's path operator joins too.
    const parts = this.language === 'python' && /\s\/\s/.test(expression) ? expression.split(/(?<=\s)\/(?=\s)/) : [];
    return parts.length > 1 ? this.joined(parts, at) : [];
  }

  /** A Python path object: `Path(…)`, a `/` join, or a name set to one. */
  isPath(expression: string): boolean {
    const trimmed = expression.trim();
    const call = /^(?:pathlib\.)?(?:Path|PurePath)\s*\(/.exec(trimmed);
    if (call) return closingParen(trimmed, call[0].length - 1) === trimmed.length - 1;
    return (/\s\/\s/.test(trimmed) && this.values(trimmed, Infinity).length > 0) || this.pathNames.has(trimmed);
  }

  /** Parts joined by `/` (one part: each of its values; several: each part's first); nothing when one part is unknown. */
  private joined(parts: string[], at: number): string[] {
    if (parts.length === 1) return this.values(parts[0], at);
    const values = parts.map((part) => this.values(part, at)[0]);
    return values.length === 0 || values.some((value) => value === undefined) ? [] : [values.join('/').replace(/\/{2,}/g, '/')];
  }

  /** `open(p, 'w')`: Python's and Ruby's mode is the second argument (or `mode=`), Perl's the second of three or the start of the path. */
  writesByMode(args: string[], mode: RegExp): boolean {
    const named = args.find((arg) => /^\s*mode\s*=/.test(arg))?.replace(/^\s*mode\s*=/, '');
    const modeArg = this.language === 'perl' ? (args.length >= 3 ? args[1] : args.at(-1)) : (named ?? args[1]);
    const literal = modeArg === undefined ? undefined : /^\s*(['"])(.*)\1\s*$/.exec(modeArg)?.[2];
    return literal !== undefined && mode.test(literal.trimStart());
  }

  /** Perl's two-argument open names its file after the mode: `'>out.txt'` is out.txt. */
  afterPerlMode(raw: string | undefined): string | undefined {
    return this.language === 'perl' && raw !== undefined ? raw.replace(/^(\s*['"])\s*\+?(?:>>?|<)\s*/, '$1') : raw;
  }

  /** The arguments of a call from just after its `(` (or its first argument, without parentheses), split at top-level commas. */
  arguments(from: number, parenthesized: boolean, text = this.text): string[] {
    const args: string[] = [];
    const end = Math.min(text.length, from + MAX_EXPRESSION_CHARS);
    let depth = 0;
    let start = from;
    for (let i = from; i < end; i++) {
      const c = text[i]!;
      if (c === '"' || c === "'" || c === '`') i = closingQuote(text, i, end);
      else if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ',' && depth === 0) {
        args.push(text.slice(start, i));
        start = i + 1;
      } else if (c === ')' || c === ']' || c === '}' || (!parenthesized && depth === 0 && (c === ';' || c === '\n'))) {
        if (depth-- === 0) return [...args, text.slice(start, i)].filter((arg) => arg.trim() !== '');
      }
    }
    return [...args, text.slice(start, end)].filter((arg) => arg.trim() !== '');
  }
}

/** The index of the `)` that closes the `(` at `open` (quotes skipped), or -1. */
function closingParen(text: string, open: number): number {
  const end = Math.min(text.length, open + MAX_EXPRESSION_CHARS);
  let depth = 0;
  for (let i = open; i < end; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === '`') i = closingQuote(text, i, end);
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

function closingQuote(text: string, at: number, end: number): number {
  for (let i = at + 1; i < end; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === text[at]) return i;
  }
  return end;
}
