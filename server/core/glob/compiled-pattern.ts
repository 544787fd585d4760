import { GLOBSTAR, Minimatch } from 'minimatch';
import { literalTokens, STAR, tokenizeSegment, type SegmentToken } from './segment-tokens.js';

/** The one set of options every claim pattern is matched with (see DESIGN.md §4). */
export const MATCH_OPTIONS = { dot: true, nocomment: true, nonegate: true, noext: true } as const;

/** One path segment of a pattern: `key` is its glob text, equal keys match the same segments. */
export interface SegmentPart {
  readonly kind: 'segment';
  readonly key: string;
  readonly tokens: readonly SegmentToken[];
}

/** Zero or more whole segments. */
export interface GlobstarPart {
  readonly kind: 'globstar';
}

/** One brace expansion of a pattern, as overlap reads it. */
export type PatternRow = readonly (SegmentPart | GlobstarPart)[];

export interface CompiledPattern {
  /** The normalized pattern text. */
  readonly source: string;
  /** For each brace expansion, its leading segments that are plain literals: a matching path starts with them. */
  readonly literalPrefixes: readonly (readonly string[])[];
  /** For each brace expansion, its segments; every `**` here matches zero or more segments. */
  readonly rows: readonly PatternRow[];
  /** Whether minimatch matches the normalized repository-relative `path`. */
  matches(path: string): boolean;
  /** Set when the pattern has no wildcards: the one path it matches. */
  readonly literal: string | undefined;
}

const GLOBSTAR_PART: GlobstarPart = { kind: 'globstar' };
/** A segment `*`: any one segment. */
export const ANY_SEGMENT: SegmentPart = { kind: 'segment', key: '*', tokens: [STAR] };

/** A literal segment's key: marked, so a literal `*` (from `[*]`) never shares the wildcard's key. */
const literalPart = (text: string): SegmentPart => ({ kind: 'segment', key: `\u0001${text}`, tokens: literalTokens(text) });

/** `.` and `..` (e.g. from `[.]`) are no repository path's segments. */
const isPathSegment = (part: string): boolean => part !== '.' && part !== '..';

/**
 * Compiles a pattern that normalizePattern has accepted. Most claims name plain files, and a live
 * plane holds tens of thousands of them: a pattern without wildcards keeps only its path (it
 * matches that one path), and its token rows are built only if something asks for them.
 */
export function compilePattern(normalized: string): CompiledPattern {
  if (!GLOB_CHARS.test(normalized)) return literalPattern(normalized, normalized.split('/'));
  const matcher = new Minimatch(normalized, MATCH_OPTIONS);
  const only = matcher.set.length === 1 ? matcher.set[0]! : undefined;
  if (only?.every((part): part is string => typeof part === 'string')) return literalPattern(normalized, [...only]);
  const literalPrefixes = matcher.set.map((row) => {
    const end = row.findIndex((part) => typeof part !== 'string');
    return (end === -1 ? row : row.slice(0, end)) as string[];
  });
  // Built now: tokenizing is also what refuses segments minimatch would misread.
  const rows = buildRows(matcher, normalized);
  return { source: normalized, literal: undefined, literalPrefixes, rows, matches: (path) => matcher.match(path) };
}

/** Characters that make a pattern more than a plain path (normalization refuses backslashes). */
const GLOB_CHARS = /[*?[\]{}]/;

/** A pattern without wildcards: it matches its one path (none, if a segment is `.` or `..`). */
function literalPattern(normalized: string, segments: string[]): CompiledPattern {
  if (!segments.every(isPathSegment)) return { source: normalized, literal: undefined, literalPrefixes: [segments], rows: [], matches: () => false };
  const literal = segments.join('/');
  let rows: PatternRow[] | undefined;
  return {
    source: normalized,
    literal,
    literalPrefixes: [segments],
    get rows() {
      return (rows ??= [segments.map(literalPart)]);
    },
    matches: (path) => path === literal,
  };
}

function buildRows(matcher: Minimatch, normalized: string): PatternRow[] {
  // With noext minimatch never merges rows, so `set` and `globParts` stay parallel.
  return matcher.set.map((row, r) => {
    const parts = row.map((part, k): SegmentPart | GlobstarPart => {
      if (part === GLOBSTAR) return GLOBSTAR_PART;
      if (typeof part === 'string') return literalPart(part);
      return { kind: 'segment', key: matcher.globParts[r]![k]!, tokens: tokenizeSegment(matcher.globParts[r]![k]!, normalized) };
    });
    // minimatch lets a final `**` match one or more segments (`a/**` does not match `a`), every other `**` zero or more.
    return parts[parts.length - 1] === GLOBSTAR_PART ? [...parts.slice(0, -1), ANY_SEGMENT, GLOBSTAR_PART] : parts;
  });
}
