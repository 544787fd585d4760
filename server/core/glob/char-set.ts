/** An inclusive range of Unicode code points. */
export type CodePointRange = readonly [lo: number, hi: number];

/** A set of code points: sorted, disjoint, non-adjacent ranges. Empty means "matches nothing". */
export type CharSet = readonly CodePointRange[];

const MAX_CODE_POINT = 0x10ffff;
const SLASH = 0x2f;

/** Every character a path segment can hold: any code point except "/". */
export const SEGMENT_CHARS: CharSet = [
  [0, SLASH - 1],
  [SLASH + 1, MAX_CODE_POINT],
];

/** The set holding exactly the given ranges (in any order, possibly overlapping), limited to segment characters. */
export function charSetOf(ranges: readonly CodePointRange[]): CharSet {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = merged[merged.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return intersect(merged, SEGMENT_CHARS);
}

/** The segment characters not in `set`. */
export function complement(set: CharSet): CharSet {
  const gaps: CodePointRange[] = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) gaps.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) gaps.push([next, MAX_CODE_POINT]);
  return intersect(gaps, SEGMENT_CHARS);
}

export function intersect(a: CharSet, b: CharSet): CharSet {
  const out: CodePointRange[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [alo, ahi] = a[i]!;
    const [blo, bhi] = b[j]!;
    const lo = Math.max(alo, blo);
    const hi = Math.min(ahi, bhi);
    if (lo <= hi) out.push([lo, hi]);
    if (ahi < bhi) i++;
    else j++;
  }
  return out;
}

export function hasCodePoint(set: CharSet, codePoint: number): boolean {
  return set.some(([lo, hi]) => lo <= codePoint && codePoint <= hi);
}

// Witnesses end up in conflict messages, so prefer characters a person recognises.
const PREFERRED_STARTS = [0x61 /* a */, 0x30 /* 0 */, 0x21 /* ! */, 0];

/** A member of `set` other than `excluded`, preferring readable characters; undefined if there is none. */
export function pickCodePoint(set: CharSet, excluded: number): number | undefined {
  for (const start of PREFERRED_STARTS) {
    for (const [lo, hi] of set) {
      if (hi < start) continue;
      const first = Math.max(lo, start);
      if (first !== excluded) return first;
      if (first + 1 <= hi) return first + 1;
    }
  }
  return undefined;
}
