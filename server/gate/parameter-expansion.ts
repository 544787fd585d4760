// The shell's parameter state, evaluated over the syntax tree: positional parameters ($1, "$@") of
// a `sh -c` script or a function, arrays, and the expansions that change a value (`${f%.ts}`,
// `${f/a/b}`, `${OUT:-build}`). A value the command does not set stays unknown (`*`), as before.
import type { KnownVariables, ShellWord } from './shell-word.js';
import { child, items, nodeType, type GoNode } from './syntax-tree.js';

/**
 * How lists are kept among the known variables (one record, so they travel into nested scripts and
 * to the parser's thread as they are): the positional parameters as `1`…`N` with their count in `#`;
 * an array `a` as `a[0]`…`a[N-1]` with its count in `a[#]` ($a is its first element).
 */
export const POSITIONAL_COUNT = '#';
export const elementKey = (array: string, index: number | '#'): string => `${array}[${index}]`;

/** The positional parameters set to `words` ($0 is `name`), replacing those of the caller. */
export function withPositionals(known: KnownVariables, name: ShellWord | undefined, words: readonly ShellWord[]): Record<string, string | ShellWord> {
  const out = withoutPositionals(known);
  if (name) out['0'] = name;
  words.forEach((word, i) => (out[String(i + 1)] = word));
  out[POSITIONAL_COUNT] = String(words.length);
  return out;
}

/** The variables with no positional parameters (a function's definition read where it is written: its $1 is not known). */
export function withoutPositionals(known: KnownVariables): Record<string, string | ShellWord> {
  return Object.fromEntries(Object.entries(known).filter(([key]) => !/^(\d+|#)$/.test(key)));
}

/** The words of a list: the positional parameters, or an array's elements; undefined when its length is not known. */
export function listWords(known: KnownVariables, array?: string): ShellWord[] | undefined {
  const count = known[array === undefined ? POSITIONAL_COUNT : elementKey(array, '#')];
  const length = typeof count === 'string' ? Number(count) : count?.literal ? Number(count.text) : NaN;
  if (!Number.isInteger(length) || length < 0) return undefined;
  const words: ShellWord[] = [];
  for (let i = 0; i < length; i++) {
    const value = known[array === undefined ? String(i + 1) : elementKey(array, i)];
    if (value === undefined) return undefined;
    words.push(typeof value === 'string' ? literal(value) : value);
  }
  return words;
}

/**
 * `"$@"`, `$*`, `"${a[@]}"` written as a whole word: bash makes one word of each element (a
 * command's arguments), so `rm "$@"` removes each. Undefined for any other word.
 */
export function splicedList(word: GoNode, known: KnownVariables): ShellWord[] | undefined {
  let parts = items(word, 'Parts');
  if (parts.length === 1 && nodeType(parts[0]) === 'DblQuoted') parts = items(parts[0]!, 'Parts');
  const param = parts.length === 1 && nodeType(parts[0]) === 'ParamExp' ? parts[0]! : undefined;
  if (!param || !isBare(param)) return undefined;
  const name = paramName(param);
  const index = child(param, 'Index');
  if ((name === '@' || name === '*') && !index) return listWords(known);
  return index && ['@', '*'].includes(wordText(index) ?? '') ? listWords(known, name) : undefined;
}

/** The value of a `$x`, `${x…}` expansion, or undefined when the command cannot know it. */
export function expandParameter(param: GoNode, known: KnownVariables, read: (word: GoNode) => ShellWord): ShellWord | undefined {
  // ${!x} (indirection, or names by prefix) and ${x@Q}-like transformations: not followed.
  if (param.Excl || child(param, 'Names')) return undefined;
  const value = valueOf(param, known);
  if (param.Length) return value?.literal ? literal(String(value.text.length)) : undefined;
  const slice = child(param, 'Slice');
  if (slice) return value && sliced(value, slice);
  const replace = child(param, 'Repl');
  if (replace) return value && replaced(value, replace, read);
  const expansion = child(param, 'Exp');
  if (!expansion) return value;
  const operand = child(expansion, 'Word');
  const word = operand ? read(operand) : literal('');
  return operated(expansion.Op as number, value, word);
}

/** `${x=d}` / `${x:=d}` of a variable the command has not set: the name and the default it then holds. */
export function assignedDefault(param: GoNode, known: KnownVariables): { name: string; word: GoNode } | undefined {
  const expansion = child(param, 'Exp');
  const word = expansion && child(expansion, 'Word');
  const name = paramName(param);
  if (!word || !ASSIGN.has(expansion!.Op as number) || child(param, 'Index') || Object.hasOwn(known, name)) return undefined;
  return { name, word };
}

/** mvdan/sh's ParExpOperator: + :+ - :- ? :? = := % %% # ##. */
const ASSIGN = new Set([74, 75]);
const ALTERNATE = new Set([68, 69]);
const DEFAULT = new Set([70, 71, 72, 73, 74, 75]);
const SUFFIX = { 76: 'short', 77: 'long' } as const;
const PREFIX = { 78: 'short', 79: 'long' } as const;

function operated(op: number, value: ShellWord | undefined, word: ShellWord): ShellWord | undefined {
  const empty = value !== undefined && value.literal && value.text === '';
  // `${OUT:-build}`: the default when the command set no value (one from the environment is not known: the default is the likeliest).
  if (DEFAULT.has(op)) return value === undefined || empty ? word : value;
  // `${x:+alt}`: alt when x is set (or may be).
  if (ALTERNATE.has(op)) return empty ? literal('') : word;
  if (value === undefined) return undefined;
  const suffix = SUFFIX[op as keyof typeof SUFFIX];
  const prefix = PREFIX[op as keyof typeof PREFIX];
  if (suffix) return eachAlternative(value, (text) => removeMatch(text, word, 'suffix', suffix === 'long'));
  if (prefix) return eachAlternative(value, (text) => removeMatch(text, word, 'prefix', prefix === 'long'));
  return undefined; // case changes (^ ^^ , ,,): rare in paths, left unknown
}

/** `${x/a/b}`, `${x//a/b}`, `${x/#a/b}`, `${x/%a/b}`. */
function replaced(value: ShellWord, replace: GoNode, read: (word: GoNode) => ShellWord): ShellWord | undefined {
  const orig = child(replace, 'Orig');
  const withWord = child(replace, 'With');
  if (!orig) return undefined;
  let pattern = read(orig);
  const anchor = pattern.text.startsWith('#') ? 'start' : pattern.text.startsWith('%') ? 'end' : undefined;
  if (anchor) pattern = { ...pattern, text: pattern.text.slice(1) };
  const by = withWord ? read(withWord) : literal('');
  if (!by.literal) return undefined;
  const source = patternSource(pattern);
  if (source === undefined || source === '') return value;
  const regex = new RegExp(anchor === 'start' ? `^${source}` : anchor === 'end' ? `${source}$` : source, replace.All ? 'gs' : 's');
  return eachAlternative(value, (text, isLiteral) => {
    // In a value that is itself a pattern, only a literal piece is replaced where it is written.
    if (!isLiteral && !pattern.literal) return undefined;
    return text.replace(regex, () => by.text);
  });
}

/** `${x:offset:length}` of a known value, with literal numbers. */
function sliced(value: ShellWord, slice: GoNode): ShellWord | undefined {
  if (!value.literal) return undefined;
  const offset = numberOf(child(slice, 'Offset'));
  const lengthNode = child(slice, 'Length');
  const length = lengthNode ? numberOf(lengthNode) : undefined;
  if (offset === undefined || (lengthNode && length === undefined)) return undefined;
  const start = offset < 0 ? Math.max(0, value.text.length + offset) : offset;
  const end = length === undefined ? undefined : length < 0 ? value.text.length + length : start + length;
  return literal(value.text.slice(start, end));
}

/** A variable's value (an element's, for `${a[1]}`), or the positional parameters for `$@` / `$*` as one pattern. */
function valueOf(param: GoNode, known: KnownVariables): ShellWord | undefined {
  const name = paramName(param);
  const index = child(param, 'Index');
  const text = index && wordText(index);
  if ((name === '@' || name === '*') && !index) return joined(listWords(known));
  if (index && (text === '@' || text === '*')) return joined(listWords(known, name));
  const key = index ? (text !== undefined && /^\d+$/.test(text) ? (text === '0' && !Object.hasOwn(known, elementKey(name, '#')) ? name : elementKey(name, Number(text))) : undefined) : name;
  if (key === undefined || !Object.hasOwn(known, key)) return undefined;
  const value = known[key]!;
  return typeof value === 'string' ? literal(value) : value;
}

/** A list as one word: several values are a `{a,b}` pattern, as a variable set twice is. */
function joined(words: ShellWord[] | undefined): ShellWord | undefined {
  if (words === undefined) return undefined;
  if (words.length <= 1) return words[0] ?? literal('');
  if (words.some((w) => w.unanchored || /[{},]/.test(w.text))) return undefined;
  return { text: `{${words.map((w) => w.text).join(',')}}`, literal: false, glob: true, unanchored: false };
}

/** Applies `change` to each value a `{a,b}` pattern stands for (or to the one value); undefined if any cannot be known. */
function eachAlternative(value: ShellWord, change: (text: string, literal: boolean) => string | undefined): ShellWord | undefined {
  const alternatives = !value.literal && /^\{[^{}]*\}$/.test(value.text) ? value.text.slice(1, -1).split(',') : undefined;
  if (!alternatives) {
    const text = change(value.text, value.literal);
    return text === undefined ? undefined : { ...value, text };
  }
  const changed = alternatives.map((text) => change(text, !/[*?[]/.test(text)));
  if (changed.some((text) => text === undefined)) return undefined;
  return { ...value, text: `{${changed.join(',')}}` };
}

/** `${x%pat}` / `${x#pat}` (the shortest match) and `%%` / `##` (the longest), as bash removes them. */
function removeMatch(text: string, pattern: ShellWord, end: 'suffix' | 'prefix', longest: boolean): string | undefined {
  const source = patternSource(pattern);
  if (source === undefined) return undefined;
  const whole = new RegExp(`^${source}$`, 's');
  const cuts = Array.from({ length: text.length + 1 }, (_, i) => (end === 'suffix' ? text.length - i : i));
  // Shortest first: a suffix starting at the end, a prefix ending at the start.
  for (const cut of longest ? cuts.reverse() : cuts) {
    const piece = end === 'suffix' ? text.slice(cut) : text.slice(0, cut);
    if (whole.test(piece)) return end === 'suffix' ? text.slice(0, cut) : text.slice(cut);
  }
  return text;
}

/** A shell pattern (`*.ts`, `?`, `[ab]`) as a regular expression's source; undefined for one the gate does not read (extglobs). */
function patternSource(pattern: ShellWord): string | undefined {
  if (!pattern.glob) return escape(pattern.text);
  if (/[@!+]\(/.test(pattern.text)) return undefined;
  let source = '';
  for (let i = 0; i < pattern.text.length; i++) {
    const c = pattern.text[i]!;
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[') {
      const close = pattern.text.indexOf(']', i + 2);
      if (close < 0) source += '\\[';
      else {
        source += `[${pattern.text.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else source += escape(c);
  }
  return source;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function numberOf(node: GoNode | undefined): number | undefined {
  const text = node && nodeType(node) === 'Word' ? wordText(node) : undefined;
  return text !== undefined && /^-?\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/** A word written as one plain literal (an index `@`, `1`). */
function wordText(node: GoNode): string | undefined {
  if (nodeType(node) !== 'Word') return undefined;
  const parts = items(node, 'Parts');
  return parts.length === 1 && nodeType(parts[0]) === 'Lit' ? (parts[0]!.Value as string) : undefined;
}

/** `$x` or `${x}` or `${a[@]}`: nothing that changes the value. */
function isBare(param: GoNode): boolean {
  return ['Exp', 'Slice', 'Repl', 'Names'].every((field) => child(param, field) === undefined) && !param.Length && !param.Excl && !param.Width;
}

function paramName(param: GoNode): string {
  return (child(param, 'Param')?.Value as string | undefined) ?? '';
}

function literal(text: string): ShellWord {
  return { text, literal: true, glob: false, unanchored: false };
}
