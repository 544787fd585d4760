import { braceExpand } from 'minimatch';
import { isPlainPattern } from './compiled-pattern.js';
import { MAX_PATTERN_COMPLEXITY } from './glob-budget.js';
import { MAX_BRACE_EXPANSIONS } from './normalize.js';
import { tokenizeSegment } from './segment-tokens.js';

/**
 * What a pattern's overlap tests can cost, read from its brace expansions before anything is
 * compiled (compiling a pathological pattern is itself slow). An upper bound of what the compiled
 * rows hold: minimatch only merges or drops segments, and a final `**` may add one.
 */
export interface Complexity {
  /** Its distinct segments' tokens, each plus one: bounds its segment searches. */
  readonly tokens: number;
  /** Its rows' segments, each row plus two: bounds its row searches. */
  readonly rowParts: number;
  /** Their weight, the one number the limit applies to: a row state costs about twice a token's share. */
  readonly weight: number;
}

/** The complexity of a normalized pattern; counting stops once the weight passes `stopAbove`. */
export function complexityOf(normalized: string, stopAbove = Number.POSITIVE_INFINITY): Complexity {
  const expansions = braceExpand(normalized, { braceExpandMax: MAX_BRACE_EXPANSIONS });
  const seen = new Set<string>();
  let tokens = 0;
  let rowParts = 0;
  const weight = (): number => Math.max(tokens, 2 * rowParts);
  for (const expansion of expansions) {
    const segments = expansion.split('/');
    rowParts += segments.length + 2;
    if (weight() > stopAbove) break;
    for (const segment of segments) {
      if (segment === '**' || seen.has(segment)) continue;
      seen.add(segment);
      tokens += tokenizeSegment(segment, normalized).length + 1;
      if (weight() > stopAbove) return { tokens, rowParts, weight: weight() };
    }
  }
  return { tokens, rowParts, weight: weight() };
}

/**
 * Why a new pattern is too complex to claim and what to write instead, or undefined if it is not.
 * Claims recorded before the limit are never judged by this (they are grandfathered).
 */
export function complexityProblem(normalized: string): string | undefined {
  if (isPlainPattern(normalized)) return undefined;
  const { tokens, rowParts, weight } = complexityOf(normalized, MAX_PATTERN_COMPLEXITY);
  if (weight <= MAX_PATTERN_COMPLEXITY) return undefined;
  const rows = 2 * rowParts >= tokens;
  const why = rows ? `its brace alternatives add up to ${rowParts} or more path segments` : `its wildcard segments add up to ${tokens} or more characters across its brace alternatives`;
  const instead = rows
    ? 'split the "{…}" group into several patterns (one claim may list many), or claim the directory they share, e.g. "src/api/**"'
    : 'use fewer "*" runs and shorter segments, or claim a directory pattern such as "src/api/**"';
  return `pattern "${normalized}" is too complex to compare with other claims within the plane's budget (limit ${MAX_PATTERN_COMPLEXITY}): ${why}. Instead, ${instead}`;
}
