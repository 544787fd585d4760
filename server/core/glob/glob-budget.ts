/**
 * Glob work is counted in steps, never timed, so that what is allowed is the same on every machine
 * and in every replay. A step is one state of a segment search (segment-overlap.ts); a state of a
 * row search, a path match and a comparison's fixed cost are charged in the same unit, weighted by
 * what they cost against it (measured: bench section `limits`, BENCHMARKS.md). A request's budget
 * keeps its glob work well inside the 50 ms that DESIGN §12 gives any one request.
 */
export const REQUEST_GLOB_BUDGET = 600_000;

/** A row-search state looks segments up and queues: it costs about this many segment-search states. */
export const ROW_STATE_STEPS = 16;

/**
 * A path match (minimatch's non-backtracking matcher) is charged one step per this many
 * (pattern token, path character) pairs: measured at 1-4 ns per such step on patterns at the limit
 * against 40- to 900-character paths, against 15-20 ns per search state.
 */
export const MATCH_CHARS_PER_STEP = 256;

/** What one comparison costs, whatever its work, so that many tiny ones are counted too. */
export const PAIR_BASE_STEPS = 32;

/**
 * The most a new pattern may weigh (CompiledPattern.complexity). Two patterns within it always
 * decide their overlap within PAIR_GLOB_BUDGET, so only a claim recorded before this limit existed
 * can exhaust a pair's budget.
 */
export const MAX_PATTERN_COMPLEXITY = 192;

/**
 * The most the new patterns of one request may weigh together. Compiling is work the step budget
 * does not see: about 2 ms a pattern at the limit, so 64 of them held every other client ~138 ms
 * (bench section `limits`, quiet machine). Eight at the limit stay well inside 50 ms with the
 * overlap budget on top; plain paths weigh nothing.
 */
export const MAX_REQUEST_COMPLEXITY = 8 * MAX_PATTERN_COMPLEXITY;

/**
 * The most one overlap test may take. A test of patterns of complexity A and B takes at most
 * 4(A+2)(B+2) segment-search states (distinct segment pairs, ANY_SEGMENT included, 4 states per
 * position pair) plus ROW_STATE_STEPS·(A/2)(B/2) for the row searches: within 8(A+2)(B+2).
 */
export const PAIR_GLOB_BUDGET = PAIR_BASE_STEPS + 8 * (MAX_PATTERN_COMPLEXITY + 2) ** 2;

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
