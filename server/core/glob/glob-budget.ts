/**
 * Glob work is counted in steps, never timed, so that what is allowed is the same on every machine
 * and in every replay. A step is one state of an overlap search, or one pattern token read against
 * one path character when a path is matched. On the machine of BENCHMARKS.md a step costs a few
 * nanoseconds at worst, so a request's whole budget stays well inside the 50 ms that DESIGN §12
 * gives any one request.
 */
export const REQUEST_GLOB_BUDGET = 4_000_000;

/**
 * The most steps one pattern may weigh (see CompiledPattern.complexity: its tokens and segments,
 * counted in every brace expansion). Two patterns within it always decide their overlap within
 * PAIR_GLOB_BUDGET, so only a claim recorded before this limit existed can exhaust a pair's budget.
 */
export const MAX_PATTERN_COMPLEXITY = 640;

/** A path match reads this many (pattern token, path character) pairs per step: far cheaper than a search state. */
export const MATCH_CHARS_PER_STEP = 32;

/** What one comparison costs, whatever its work, so that many tiny ones are counted too. */
export const PAIR_BASE_STEPS = 32;

/** The most an overlap test of two patterns within MAX_PATTERN_COMPLEXITY can take (see overlap.ts). */
export const PAIR_GLOB_BUDGET = PAIR_BASE_STEPS + 5 * (MAX_PATTERN_COMPLEXITY + 2) ** 2;

/** The steps one request may still spend on glob work. Spending is all or nothing. */
export class GlobBudget {
  constructor(private left: number) {}

  static forRequest(): GlobBudget {
    return new GlobBudget(REQUEST_GLOB_BUDGET);
  }

  static unlimited(): GlobBudget {
    return new GlobBudget(Number.POSITIVE_INFINITY);
  }

  get remaining(): number {
    return this.left;
  }

  /** Takes `steps` if that many are left; otherwise takes nothing and says so. */
  trySpend(steps: number): boolean {
    if (steps > this.left) return false;
    this.left -= steps;
    return true;
  }

  /** Runs `work` with at most `cap` of the steps left here, and charges what it spent. */
  within<T>(cap: number, work: (slice: GlobBudget) => T): T {
    const slice = new GlobBudget(Math.min(cap, this.left));
    const granted = slice.left;
    try {
      return work(slice);
    } finally {
      this.left -= granted - slice.left;
    }
  }
}
