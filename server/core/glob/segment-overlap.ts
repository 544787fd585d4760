import { hasCodePoint, intersect, pickCodePoint, SEGMENT_CHARS, type CharSet } from './char-set.js';
import { SearchScratch } from './search-scratch.js';
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
  const scratch = SearchScratch.for((a.length + 1) * width * 4, SHARED);
  const { charRead, queue } = scratch;
  let tail = 0;
  const reach = (to: number, from: number, char: number): void => {
    if (!scratch.reach(to, from)) return;
    charRead[to] = char;
    queue[tail++] = to;
  };
  // What each token lets a step read, worked out once per token rather than once per state.
  const readsA = a.map(readsOf);
  const readsB = b.map(readsOf);
  const consume = (i: number, j: number, read: number, from: number, reads: TokenReads): void => {
    if (reads.dot) reach(id(i, j, afterDot(read)), from, DOT);
    if (reads.other !== undefined) reach(id(i, j, OTHER), from, reads.other);
  };
  const start = id(0, 0, EMPTY);
  const goal = id(a.length, b.length, OTHER);
  reach(start, start, NO_CHAR);
  for (let head = 0; head < tail && !scratch.reached(goal); head++) {
    const state = queue[head]!;
    const read = state & 3;
    const i = Math.floor((state >> 2) / width);
    const j = (state >> 2) % width;
    const x = a[i];
    const y = b[j];
    if (x?.kind === 'star') reach(id(i + 1, j, read), state, NO_CHAR);
    if (y?.kind === 'star') reach(id(i, j + 1, read), state, NO_CHAR);
    if (!x || !y) continue;
    if (x.kind === 'star') {
      consume(i, j + (y.kind === 'star' ? 0 : 1), read, state, readsB[j]!);
    } else if (y.kind === 'star') {
      consume(i + 1, j, read, state, readsA[i]!);
    } else {
      consume(i + 1, j + 1, read, state, readsOfBoth(x.set, y.set));
    }
  }
  if (!scratch.reached(goal)) return undefined;
  const chars: number[] = [];
  for (let state = goal; state !== start; state = scratch.cameFrom[state]!) {
    if (charRead[state] !== NO_CHAR) chars.push(charRead[state]!);
  }
  return String.fromCodePoint(...chars.reverse());
}

const SHARED = new SearchScratch();
const NO_CHAR = -1;

/** What a step can read: a dot, and which other character (if any). */
interface TokenReads {
  readonly dot: boolean;
  readonly other: number | undefined;
}

const readsOfSet = (set: CharSet): TokenReads => ({ dot: hasCodePoint(set, DOT), other: pickCodePoint(set, DOT) });
const ANY_READS = readsOfSet(SEGMENT_CHARS);

/** A star reads any character. */
const readsOf = (token: SegmentToken): TokenReads => (token.kind === 'star' ? ANY_READS : readsOfSet(token.set));

function readsOfBoth(x: CharSet, y: CharSet): TokenReads {
  // Most tokens are one literal character: two of them meet only if they are the same.
  const [xlo, xhi] = x.length === 1 ? x[0]! : [NO_CHAR, NO_CHAR];
  const [ylo, yhi] = y.length === 1 ? y[0]! : [NO_CHAR, NO_CHAR];
  if (xlo !== NO_CHAR && xlo === xhi && ylo === yhi && ylo !== NO_CHAR) {
    return xlo !== ylo ? NOTHING : xlo === DOT ? DOT_ONLY : { dot: false, other: xlo };
  }
  return readsOfSet(intersect(x, y));
}

const NOTHING: TokenReads = { dot: false, other: undefined };
const DOT_ONLY: TokenReads = { dot: true, other: undefined };
