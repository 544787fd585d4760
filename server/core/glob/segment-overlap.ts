import { hasCodePoint, intersect, pickCodePoint, SEGMENT_CHARS, type CharSet } from './char-set.js';
import type { SegmentToken } from './segment-tokens.js';

const DOT = 0x2e;

// What the segment read so far is: minimatch never matches "." or ".." (even with dot:true) and a
// path segment is never empty, so a witness must end in OTHER.
const EMPTY = 0;
const ONE_DOT = 1;
const TWO_DOTS = 2;
const OTHER = 3;

function afterDot(state: number): number {
  return state === EMPTY ? ONE_DOT : state === ONE_DOT ? TWO_DOTS : OTHER;
}

/**
 * A path segment (not "", "." or "..") that both single-segment globs match, or undefined if there
 * is none. A breadth-first search over the product of the two token sequences: a state is a
 * position in each plus what the segment read so far is, so the work is O(|a|·|b|).
 */
export function segmentWitness(a: readonly SegmentToken[], b: readonly SegmentToken[]): string | undefined {
  const width = b.length + 1;
  const id = (i: number, j: number, read: number): number => ((i * width + j) << 2) | read;
  const size = (a.length + 1) * width * 4;
  // Typed arrays rather than maps: a 1,024-character pattern pair means millions of states.
  const cameFrom = new Int32Array(size).fill(-1);
  const charRead = new Int32Array(size).fill(-1);
  const queue = new Int32Array(size);
  let tail = 0;
  const reach = (to: number, from: number, char: number): void => {
    if (cameFrom[to] !== -1) return;
    cameFrom[to] = from;
    charRead[to] = char;
    queue[tail++] = to;
  };
  const consume = (i: number, j: number, read: number, from: number, set: CharSet): void => {
    if (hasCodePoint(set, DOT)) reach(id(i, j, afterDot(read)), from, DOT);
    const other = pickCodePoint(set, DOT);
    if (other !== undefined) reach(id(i, j, OTHER), from, other);
  };
  const start = id(0, 0, EMPTY);
  const goal = id(a.length, b.length, OTHER);
  cameFrom[start] = start;
  queue[tail++] = start;
  for (let head = 0; head < tail && cameFrom[goal] === -1; head++) {
    const state = queue[head]!;
    const read = state & 3;
    const i = Math.floor((state >> 2) / width);
    const j = (state >> 2) % width;
    const x = a[i];
    const y = b[j];
    if (x?.kind === 'star') reach(id(i + 1, j, read), state, -1);
    if (y?.kind === 'star') reach(id(i, j + 1, read), state, -1);
    if (!x || !y) continue;
    if (x.kind === 'star') {
      if (y.kind === 'star') consume(i, j, read, state, SEGMENT_CHARS);
      else consume(i, j + 1, read, state, y.set);
    } else if (y.kind === 'star') {
      consume(i + 1, j, read, state, x.set);
    } else {
      consume(i + 1, j + 1, read, state, intersect(x.set, y.set));
    }
  }
  if (cameFrom[goal] === -1) return undefined;
  const chars: number[] = [];
  for (let state = goal; state !== start; state = cameFrom[state]!) {
    if (charRead[state] !== -1) chars.push(charRead[state]!);
  }
  return String.fromCodePoint(...chars.reverse());
}
