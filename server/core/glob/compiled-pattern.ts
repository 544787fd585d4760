import { GLOBSTAR, Minimatch } from 'minimatch';
import { complexityOf } from './complexity.js';
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
  /**
   * How much glob work this pattern can cause (complexity.ts, glob-budget.ts). 0 for a plain path
   * or a plain directory's subtree: they cost plain string work, bounded by their length.
   */
  readonly complexity: number;
}

const GLOBSTAR_PART: GlobstarPart = { kind: 'globstar' };
/** A segment `*`: any one segment. */
export const ANY_SEGMENT: SegmentPart = { kind: 'segment', key: '*', tokens: [STAR] };

const LITERAL_MARK = '\u0001';

/**
 * A literal segment. Its per-character tokens are only needed when it meets a wildcard segment in
 * an overlap test, so they are built then rather than kept for every live claim.
 */
class LiteralSegmentPart implements SegmentPart {
  readonly kind = 'segment';
  /** Marked, so a literal `*` (from `[*]`) never shares the wildcard's key. */
  readonly key: string;

  constructor(text: string) {
    this.key = `${LITERAL_MARK}${text}`;
  }

  get tokens(): readonly SegmentToken[] {
    return literalTokens(this.key.slice(LITERAL_MARK.length));
  }
}

const literalPart = (text: string): SegmentPart => new LiteralSegmentPart(text);

/**
 * A pattern without wildcards: it matches its one path. Most claims name plain files and a live
 * plane holds tens of thousands of them, so this keeps only its text; the rest is derived on demand.
 */
class LiteralPattern implements CompiledPattern {
  constructor(
    readonly source: string,
    readonly literal: string,
  ) {}

  get literalPrefixes(): readonly (readonly string[])[] {
    return [this.literal.split('/')];
  }

  get rows(): readonly PatternRow[] {
    return [this.literal.split('/').map(literalPart)];
  }

  readonly complexity = 0;

  matches(path: string): boolean {
    return path === this.literal;
  }
}

/** A pattern with wildcards, matched by minimatch itself. */
class GlobPattern implements CompiledPattern {
  readonly literal = undefined;

  constructor(
    readonly source: string,
    readonly literalPrefixes: readonly (readonly string[])[],
    readonly rows: readonly PatternRow[],
    readonly complexity: number,
    private readonly matcher: Minimatch,
  ) {}

  matches(path: string): boolean {
    return this.matcher.match(path);
  }
}

/**
 * `dir/**`, the usual claim on a directory: every path strictly below `dir`. Directory claims are
 * common and minimatch keeps kilobytes per pattern, so this one matches without it.
 */
class SubtreePattern implements CompiledPattern {
  readonly literal = undefined;

  /** `source` is `dir/**` with `dir` a plain path. */
  constructor(readonly source: string) {}

  private get dir(): string {
    return this.source.slice(0, -SUBTREE_SUFFIX.length);
  }

  get literalPrefixes(): readonly (readonly string[])[] {
    return [this.dir.split('/')];
  }

  get rows(): readonly PatternRow[] {
    return [[...this.dir.split('/').map(literalPart), ANY_SEGMENT, GLOBSTAR_PART]];
  }

  readonly complexity = 0;

  matches(path: string): boolean {
    const dir = this.dir;
    // As minimatch reads a final `**`: anything below `dir`, but never through a `.` or `..` segment.
    return path.startsWith(dir) && path[dir.length] === '/' && path.slice(dir.length + 1).split('/').every(isPathSegment);
  }
}

const SUBTREE_SUFFIX = '/**';

/** `.` and `..` (e.g. from `[.]`) are no repository path's segments. */
const isPathSegment = (part: string): boolean => part !== '.' && part !== '..';
const isNonEmptyPathSegment = (part: string): boolean => part !== '' && isPathSegment(part);

/** Whether the pattern is a plain path or a plain directory's subtree: matched by string work alone. */
export function isPlainPattern(normalized: string): boolean {
  return !GLOB_CHARS.test(normalized) || isSubtree(normalized);
}

/** Compiles a pattern that normalizePattern has accepted. */
export function compilePattern(normalized: string): CompiledPattern {
  if (!GLOB_CHARS.test(normalized)) return literalPattern(normalized, normalized);
  if (isSubtree(normalized)) return new SubtreePattern(normalized);
  const matcher = new Minimatch(normalized, MATCH_OPTIONS);
  const only = matcher.set.length === 1 ? matcher.set[0]! : undefined;
  if (only?.every((part): part is string => typeof part === 'string')) return literalPattern(normalized, only.join('/'));
  const literalPrefixes = matcher.set.map((row) => {
    const end = row.findIndex((part) => typeof part !== 'string');
    return (end === -1 ? row : row.slice(0, end)) as string[];
  });
  // Built now: tokenizing is also what refuses segments minimatch would misread.
  const rows = buildRows(matcher, normalized);
  return new GlobPattern(normalized, literalPrefixes, rows, complexityOf(normalized).weight, matcher);
}

/** Characters that make a pattern more than a plain path (normalization refuses backslashes). */
const GLOB_CHARS = /[*?[\]{}]/;

function isSubtree(normalized: string): boolean {
  if (!normalized.endsWith(SUBTREE_SUFFIX)) return false;
  const dir = normalized.slice(0, -SUBTREE_SUFFIX.length);
  return !GLOB_CHARS.test(dir) && dir.split('/').every(isNonEmptyPathSegment);
}

/** A pattern without wildcards matches its one path; none, if a segment is `.` or `..`. */
function literalPattern(normalized: string, literal: string): CompiledPattern {
  const segments = literal.split('/');
  if (segments.every(isPathSegment)) return new LiteralPattern(normalized, literal);
  return { source: normalized, literal: undefined, literalPrefixes: [segments], rows: [], complexity: 0, matches: () => false };
}

function buildRows(matcher: Minimatch, normalized: string): PatternRow[] {
  // Brace expansions repeat segments: each distinct one is made (and tokenized) once and shared, so
  // an overlap test can tell segments apart by identity.
  const distinct = new Map<string, SegmentPart>();
  const shared = (part: SegmentPart): SegmentPart => {
    const known = distinct.get(part.key);
    if (known) return known;
    distinct.set(part.key, part);
    return part;
  };
  // With noext minimatch never merges rows, so `set` and `globParts` stay parallel.
  return matcher.set.map((row, r) => {
    const parts = row.map((part, k): SegmentPart | GlobstarPart => {
      if (part === GLOBSTAR) return GLOBSTAR_PART;
      if (typeof part === 'string') return shared(literalPart(part));
      const glob = matcher.globParts[r]![k]!;
      return distinct.get(glob) ?? shared({ kind: 'segment', key: glob, tokens: tokenizeSegment(glob, normalized) });
    });
    // minimatch lets a final `**` match one or more segments (`a/**` does not match `a`), every other `**` zero or more.
    return parts[parts.length - 1] === GLOBSTAR_PART ? [...parts.slice(0, -1), ANY_SEGMENT, GLOBSTAR_PART] : parts;
  });
}
