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
}

const GLOBSTAR_PART: GlobstarPart = { kind: 'globstar' };
/** A segment `*`: any one segment. */
export const ANY_SEGMENT: SegmentPart = { kind: 'segment', key: '*', tokens: [STAR] };

/** Compiles a pattern that normalizePattern has accepted. */
export function compilePattern(normalized: string): CompiledPattern {
  const matcher = new Minimatch(normalized, MATCH_OPTIONS);
  // With noext minimatch never merges rows, so `set` and `globParts` stay parallel.
  const rows = matcher.set.map((row, r) => {
    const parts = row.map((part, k): SegmentPart | GlobstarPart => {
      if (part === GLOBSTAR) return GLOBSTAR_PART;
      const glob = matcher.globParts[r]![k]!;
      const tokens = typeof part === 'string' ? literalTokens(part) : tokenizeSegment(glob, normalized);
      return { kind: 'segment', key: glob, tokens };
    });
    // minimatch lets a final `**` match one or more segments (`a/**` does not match `a`), every other `**` zero or more.
    return parts[parts.length - 1] === GLOBSTAR_PART ? [...parts.slice(0, -1), ANY_SEGMENT, GLOBSTAR_PART] : parts;
  });
  const literalPrefixes = matcher.set.map((row) => {
    const end = row.findIndex((part) => typeof part !== 'string');
    return (end === -1 ? row : row.slice(0, end)) as string[];
  });
  return {
    source: normalized,
    literalPrefixes,
    rows,
    matches: (path) => matcher.match(path),
  };
}
