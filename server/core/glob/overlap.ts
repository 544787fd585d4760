import { ANY_SEGMENT, type CompiledPattern, type PatternRow, type SegmentPart } from './compiled-pattern.js';
import { segmentWitness } from './segment-overlap.js';

/** Whether some repository path matches both patterns. Exact, not a heuristic. */
export function overlaps(a: CompiledPattern, b: CompiledPattern): boolean {
  return overlapWitness(a, b) !== undefined;
}

/**
 * A path that matches both patterns (worth showing in a conflict message), or undefined if no path
 * does. A path here is one or more segments, none of them "", "." or "..".
 */
export function overlapWitness(a: CompiledPattern, b: CompiledPattern): string | undefined {
  // A pattern without wildcards matches one path: either the other pattern matches it too, or nothing does.
  if (a.literal !== undefined) return b.matches(a.literal) ? a.literal : undefined;
  if (b.literal !== undefined) return a.matches(b.literal) ? b.literal : undefined;
  const segments = new SegmentCache();
  for (const rowA of a.rows) {
    for (const rowB of b.rows) {
      const witness = rowWitness(rowA, rowB, segments);
      if (witness !== undefined) return witness;
    }
  }
  return undefined;
}

// Brace expansions repeat the same segments across rows, so each pair is solved once per call.
class SegmentCache {
  private readonly witnesses = new Map<string, string | null>();

  witness(x: SegmentPart, y: SegmentPart): string | undefined {
    const key = `${x.key}\u0000${y.key}`;
    let found = this.witnesses.get(key);
    if (found === undefined) {
      found = segmentWitness(x.tokens, y.tokens) ?? null;
      this.witnesses.set(key, found);
    }
    return found ?? undefined;
  }
}

// Breadth-first search over pairs of positions in the two rows: a `**` either ends (moves on
// without a segment) or takes the segment the other row matches there. Every row needs at least one
// segment (compilePattern rewrites a final `**`), so reaching the end of both is a non-empty path.
function rowWitness(a: PatternRow, b: PatternRow, segments: SegmentCache): string | undefined {
  const width = b.length + 1;
  const cameFrom = new Int32Array((a.length + 1) * width).fill(-1);
  const queue: number[] = [0];
  cameFrom[0] = 0;
  const reach = (i: number, j: number, from: number): void => {
    const to = i * width + j;
    if (cameFrom[to] !== -1) return;
    cameFrom[to] = from;
    queue.push(to);
  };
  // The segment a move from (i, j) to (i + di, j + dj) reads, if it reads one; the kinds of the two
  // parts tell which of the moves it was, so the search need not store the segments.
  const segmentOf = (i: number, j: number, di: number, dj: number): string | undefined => {
    const x = a[i];
    const y = b[j];
    if (di === 1 && dj === 1) return segments.witness(x as SegmentPart, y as SegmentPart);
    if (di === 1) return x?.kind === 'segment' ? segments.witness(x, ANY_SEGMENT) : undefined;
    return y?.kind === 'segment' ? segments.witness(ANY_SEGMENT, y) : undefined;
  };
  const goal = a.length * width + b.length;
  for (let head = 0; head < queue.length && cameFrom[goal] === -1; head++) {
    const state = queue[head]!;
    const i = Math.floor(state / width);
    const j = state % width;
    const x = a[i];
    const y = b[j];
    if (x?.kind === 'globstar') reach(i + 1, j, state);
    if (y?.kind === 'globstar') reach(i, j + 1, state);
    if (x?.kind === 'segment' && y?.kind === 'segment') {
      if (segments.witness(x, y) !== undefined) reach(i + 1, j + 1, state);
    } else if (x?.kind === 'globstar' && y?.kind === 'segment') {
      if (segments.witness(ANY_SEGMENT, y) !== undefined) reach(i, j + 1, state);
    } else if (x?.kind === 'segment' && y?.kind === 'globstar') {
      if (segments.witness(x, ANY_SEGMENT) !== undefined) reach(i + 1, j, state);
    }
  }
  if (cameFrom[goal] === -1) return undefined;
  const path: string[] = [];
  for (let state = goal; state !== 0; state = cameFrom[state]!) {
    const from = cameFrom[state]!;
    const i = Math.floor(from / width);
    const j = from % width;
    const segment = segmentOf(i, j, Math.floor(state / width) - i, (state % width) - j);
    if (segment !== undefined) path.push(segment);
  }
  return path.reverse().join('/');
}
