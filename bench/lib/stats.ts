export { seededRandom } from '../../server/core/seeded-random.js';
/** Latency samples in microseconds, summarised the way every figure of the suite is reported. */
export interface Summary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of sorted samples. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function summarize(samples: ArrayLike<number>): Summary {
  const sorted = Float64Array.from(samples).sort();
  let total = 0;
  for (const value of sorted) total += value;
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length > 0 ? sorted[sorted.length - 1]! : NaN,
    mean: sorted.length > 0 ? total / sorted.length : NaN,
  };
}

/** Microseconds since `start` (a process.hrtime.bigint() reading). */
export const microsSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1000;

export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
