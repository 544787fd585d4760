import type { CompiledPattern, PatternRow, SegmentPart } from './compiled-pattern.js';
import { MAX_PATTERN_COMPLEXITY } from './glob-budget.js';

/** What a pattern's overlap tests can cost: see CompiledPattern.complexity. */
export interface Complexity {
  /** Its distinct segments' tokens, each plus one: bounds its segment searches. */
  readonly tokens: number;
  /** Its rows' segments, each row plus one: bounds its row searches. */
  readonly rowParts: number;
}

export function complexityOf(rows: readonly PatternRow[]): Complexity {
  const segments = new Set<SegmentPart>();
  let rowParts = 0;
  for (const row of rows) {
    rowParts += row.length + 1;
    for (const part of row) if (part.kind === 'segment') segments.add(part);
  }
  let tokens = 0;
  for (const segment of segments) tokens += segment.tokens.length + 1;
  return { tokens, rowParts };
}

/** The one number the limit applies to: row states cost about twice a segment state's share. */
export const weightOf = ({ tokens, rowParts }: Complexity): number => Math.max(tokens, 2 * rowParts);

/**
 * Why a new pattern is too complex to claim and what to write instead, or undefined if it is not.
 * Claims recorded before the limit are never judged by this (they are grandfathered).
 */
export function complexityProblem(pattern: CompiledPattern): string | undefined {
  if (pattern.complexity <= MAX_PATTERN_COMPLEXITY) return undefined;
  const { tokens, rowParts } = complexityOf(pattern.rows);
  const why =
    2 * rowParts >= tokens
      ? `its ${pattern.rows.length} brace alternatives add up to ${rowParts} path segments`
      : `its wildcard segments add up to ${tokens} characters across its brace alternatives`;
  const instead =
    2 * rowParts >= tokens
      ? 'split the "{…}" group into several patterns (one claim may list many), or claim the directory they share, e.g. "src/api/**"'
      : 'use fewer "*" runs and shorter segments, or claim a directory pattern such as "src/api/**"';
  return `pattern "${pattern.source}" is too complex to compare with other claims within the plane's budget (weight ${pattern.complexity}, limit ${MAX_PATTERN_COMPLEXITY}): ${why}. Instead, ${instead}`;
}
