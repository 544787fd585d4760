import { ANY_SEGMENT, type CompiledPattern, type PatternRow, type SegmentPart } from './compiled-pattern.js';
import { GlobBudget, MATCH_CHARS_PER_STEP, PAIR_BASE_STEPS, PAIR_GLOB_BUDGET, ROW_STATE_STEPS } from './glob-budget.js';
import { SearchScratch } from './search-scratch.js';
import { segmentWitness } from './segment-overlap.js';
import type { SegmentToken } from './segment-tokens.js';

/** The budget ran out before the answer was known. */
export const UNDECIDED = Symbol('undecided');
export type Undecided = typeof UNDECIDED;

/** Whether some repository path matches both patterns. Exact, not a heuristic, and unbounded: for tests and tools. */
export function overlaps(a: CompiledPattern, b: CompiledPattern): boolean {
  return overlapWitness(a, b) !== undefined;
}

/** overlapWithin without a budget (a request never calls this). */
export function overlapWitness(a: CompiledPattern, b: CompiledPattern): string | undefined {
  const outcome = overlapWithin(a, b, GlobBudget.unlimited(), Number.POSITIVE_INFINITY);
  if (outcome === UNDECIDED) throw new Error('an unlimited budget ran out');
  return outcome;
}

/**
 * A path that matches both patterns (worth showing in a conflict message), undefined if no path
 * does, or UNDECIDED when answering would take more than `pairCap` steps or than `budget` has left.
 * A path here is one or more segments, none of them "", "." or "..".
 */
export function overlapWithin(a: CompiledPattern, b: CompiledPattern, budget: GlobBudget, pairCap = PAIR_GLOB_BUDGET): string | undefined | Undecided {
  // A pattern without wildcards matches one path: either the other pattern matches it too, or nothing does.
  if (a.literal !== undefined || b.literal !== undefined) {
    const [path, other] = a.literal !== undefined ? [a.literal, b] : [b.literal!, a];
    const matched = matchWithin(other, path, budget, pairCap);
    return matched === UNDECIDED ? UNDECIDED : matched ? path : undefined;
  }
  return budget.within(pairCap, (pair) => {
    if (!pair.trySpend(PAIR_BASE_STEPS)) return UNDECIDED;
    const segments = new SegmentCache(pair);
    const rowsB = b.rows;
    for (const rowA of a.rows) {
      for (const rowB of rowsB) {
        const witness = rowWitness(rowA, rowB, segments, pair);
        if (witness !== undefined) return witness;
      }
    }
    return undefined;
  });
}

/**
 * Whether `pattern` matches the normalized `path`, or UNDECIDED if that would cost more than
 * `pairCap` steps or than the budget has left.
 * minimatch's matcher reads each pattern token against each path character a bounded number of
 * times, so the charge is the pattern's complexity times the path's length.
 */
export function matchWithin(pattern: CompiledPattern, path: string, budget: GlobBudget, pairCap = PAIR_GLOB_BUDGET): boolean | Undecided {
  const steps = PAIR_BASE_STEPS + Math.ceil((Math.max(1, pattern.complexity) * (path.length + 1)) / MATCH_CHARS_PER_STEP);
  return steps <= pairCap && budget.trySpend(steps) ? pattern.matches(path) : UNDECIDED;
}

// Rows share their segment objects (compilePattern), so each pair is solved once per call. Solving
// a pair is charged its search's size before it starts: the arrays are that big. Against a literal
// segment only one of the four dot states is reachable per position pair.
class SegmentCache {
  private readonly witnesses = new Map<SegmentPart, Map<SegmentPart, string | null>>();

  constructor(private readonly budget: GlobBudget) {}

  witness(x: SegmentPart, y: SegmentPart): string | undefined | Undecided {
    let row = this.witnesses.get(x);
    if (!row) {
      row = new Map();
      this.witnesses.set(x, row);
    }
    let found = row.get(y);
    if (found === undefined) {
      const xs = x.tokens;
      const ys = y.tokens;
      const dotStates = isLiteral(xs) || isLiteral(ys) ? 1 : 4;
      if (!this.budget.trySpend(dotStates * (xs.length + 1) * (ys.length + 1))) return UNDECIDED;
      found = segmentWitness(xs, ys) ?? null;
      row.set(y, found);
    }
    return found ?? undefined;
  }
}

const ROW_SCRATCH = new SearchScratch();

const isLiteral = (tokens: readonly SegmentToken[]): boolean =>
  tokens.every((token) => token.kind === 'chars' && token.set.length === 1 && token.set[0]![0] === token.set[0]![1]);

// Breadth-first search over pairs of positions in the two rows: a `**` either ends (moves on
// without a segment) or takes the segment the other row matches there. Every row needs at least one
// segment (compilePattern rewrites a final `**`), so reaching the end of both is a non-empty path.
function rowWitness(a: PatternRow, b: PatternRow, segments: SegmentCache, budget: GlobBudget): string | undefined | Undecided {
  const width = b.length + 1;
  if (!budget.trySpend(ROW_STATE_STEPS * (a.length + 1) * width)) return UNDECIDED;
  let undecided = false;
  // Whether some segment matches both; a pair the budget cannot pay for stops the search.
  const meet = (x: SegmentPart, y: SegmentPart): boolean => {
    const witness = segments.witness(x, y);
    if (witness === UNDECIDED) undecided = true;
    return typeof witness === 'string';
  };
  // Its own scratch: a row search runs segment searches (which use theirs) as it goes.
  const scratch = SearchScratch.for((a.length + 1) * width, ROW_SCRATCH);
  const { queue } = scratch;
  let tail = 0;
  const reach = (i: number, j: number, from: number): void => {
    const to = i * width + j;
    if (scratch.reach(to, from)) queue[tail++] = to;
  };
  // The segment a move from (i, j) to (i + di, j + dj) reads, if it reads one; the kinds of the two
  // parts tell which of the moves it was, so the search need not store the segments. Every pair
  // on the path was solved during the search, so these come from the cache.
  const segmentOf = (i: number, j: number, di: number, dj: number): string | undefined => {
    const x = a[i];
    const y = b[j];
    if (di === 1 && dj === 1) return segments.witness(x as SegmentPart, y as SegmentPart) as string;
    if (di === 1) return x?.kind === 'segment' ? (segments.witness(x, ANY_SEGMENT) as string) : undefined;
    return y?.kind === 'segment' ? (segments.witness(ANY_SEGMENT, y) as string) : undefined;
  };
  const goal = a.length * width + b.length;
  reach(0, 0, 0);
  for (let head = 0; head < tail && !scratch.reached(goal) && !undecided; head++) {
    const state = queue[head]!;
    const i = Math.floor(state / width);
    const j = state % width;
    const x = a[i];
    const y = b[j];
    if (x?.kind === 'globstar') reach(i + 1, j, state);
    if (y?.kind === 'globstar') reach(i, j + 1, state);
    if (x?.kind === 'segment' && y?.kind === 'segment') {
      if (meet(x, y)) reach(i + 1, j + 1, state);
    } else if (x?.kind === 'globstar' && y?.kind === 'segment') {
      if (meet(ANY_SEGMENT, y)) reach(i, j + 1, state);
    } else if (x?.kind === 'segment' && y?.kind === 'globstar') {
      if (meet(x, ANY_SEGMENT)) reach(i + 1, j, state);
    }
  }
  if (undecided) return UNDECIDED;
  if (!scratch.reached(goal)) return undefined;
  const path: string[] = [];
  for (let state = goal; state !== 0; state = scratch.cameFrom[state]!) {
    const from = scratch.cameFrom[state]!;
    const i = Math.floor(from / width);
    const j = from % width;
    const segment = segmentOf(i, j, Math.floor(state / width) - i, (state % width) - j);
    if (segment !== undefined) path.push(segment);
  }
  return path.reverse().join('/');
}
