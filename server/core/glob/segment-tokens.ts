import { charSetOf, complement, SEGMENT_CHARS, type CharSet, type CodePointRange } from './char-set.js';
import { PatternError } from './pattern-error.js';

/** One position of a single-segment glob: a character from a set (literal, `?` or `[…]`), or `*`. */
export type SegmentToken = { readonly kind: 'chars'; readonly set: CharSet } | { readonly kind: 'star' };

export const STAR: SegmentToken = { kind: 'star' };
const ANY_CHAR: SegmentToken = { kind: 'chars', set: SEGMENT_CHARS };

const POSIX_CLASS_START = /^\[:(?:alnum|alpha|ascii|blank|cntrl|digit|graph|lower|print|punct|space|upper|word|xdigit):\]/;

// One token per character, shared: long patterns repeat the same few characters thousands of times.
const charTokens = new Map<number, SegmentToken>();
function charToken(char: string): SegmentToken {
  const codePoint = char.codePointAt(0)!;
  let token = charTokens.get(codePoint);
  if (!token) {
    token = { kind: 'chars', set: charSetOf([[codePoint, codePoint]]) };
    if (charTokens.size < MAX_SHARED_CHAR_TOKENS) charTokens.set(codePoint, token);
  }
  return token;
}
const MAX_SHARED_CHAR_TOKENS = 4096;

/** The tokens of a segment minimatch keeps as a plain string (it matches exactly that string). */
export function literalTokens(literal: string): SegmentToken[] {
  return [...literal].map(charToken);
}

/**
 * The tokens of a segment glob, read the way minimatch's segment matcher
 * (@isaacs/nonrecursive-glob-match, with noext) reads it, code point by code point, so that the
 * overlap test agrees with matching. `pattern` is the whole pattern, for error messages.
 */
export function tokenizeSegment(glob: string, pattern: string): SegmentToken[] {
  const tokens: SegmentToken[] = [];
  for (let i = 0; i < glob.length; ) {
    const char = String.fromCodePoint(glob.codePointAt(i)!);
    if (char === '\\') {
      throw new PatternError(pattern, `pattern "${pattern}" contains a backslash: normalize it with normalizePattern first`);
    }
    if (char === '[') {
      const parsed = parseClass(glob, i, pattern);
      if (parsed) {
        tokens.push({ kind: 'chars', set: parsed.set });
        i = parsed.end;
        continue;
      }
    }
    tokens.push(char === '*' ? STAR : char === '?' ? ANY_CHAR : charToken(char));
    i += char.length;
  }
  return tokens;
}

// Mirrors parseClass of the matcher: an unclosed class is a literal "[" (undefined here); reversed
// ranges are dropped; a class left with no members matches nothing and swallows the rest of the segment.
function parseClass(glob: string, start: number, pattern: string): { set: CharSet; end: number } | undefined {
  const ranges: CodePointRange[] = [];
  let negate = false;
  let sawStart = false;
  let rangeStart: number | undefined;
  let i = start + 1;
  while (i < glob.length) {
    const codePoint = glob.codePointAt(i)!;
    const char = String.fromCodePoint(codePoint);
    if ((char === '!' || char === '^') && i === start + 1) {
      negate = true;
      i++;
      continue;
    }
    if (char === ']' && sawStart) {
      if (ranges.length === 0) return { set: [], end: glob.length };
      const members = charSetOf(ranges);
      return { set: negate ? complement(members) : members, end: i + 1 };
    }
    sawStart = true;
    if (char === '\\') {
      throw new PatternError(pattern, `pattern "${pattern}" contains a backslash: normalize it with normalizePattern first`);
    }
    if (char === '[' && POSIX_CLASS_START.test(glob.slice(i))) {
      throw new PatternError(pattern, `pattern "${pattern}" uses a POSIX character class: list the characters or a range instead, e.g. "[a-zA-Z]"`);
    }
    i += char.length;
    if (rangeStart !== undefined) {
      if (codePoint >= rangeStart) ranges.push([rangeStart, codePoint]);
      rangeStart = undefined;
    } else if (glob.startsWith('-]', i)) {
      ranges.push([codePoint, codePoint], [0x2d, 0x2d]);
      i++;
    } else if (glob.startsWith('-', i)) {
      rangeStart = codePoint;
      i++;
    } else {
      ranges.push([codePoint, codePoint]);
    }
  }
  return undefined;
}
