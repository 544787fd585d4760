import assert from 'node:assert/strict';
import type { PlaneClient } from '../../server/client/plane-client.js';

/**
 * The plane kept answering another client while it was abused. Loose on purpose, for a shared
 * 2-core machine (the real figures go to the bench): the median call under 50 ms, none over 1 s —
 * a plane that stalls behind the abuse (seconds, before the limits) fails either.
 */
export function assertResponsive(latenciesMs: readonly number[], context: string): void {
  assert.ok(latenciesMs.length > 0, `no calls were timed (${context})`);
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const slowest = sorted[sorted.length - 1]!;
  console.log(`  another client: ${sorted.length} calls, median ${median.toFixed(2)} ms, slowest ${slowest.toFixed(1)} ms`);
  assert.ok(median < 50, `another client's median call took ${median.toFixed(1)} ms during the abuse (${context})`);
  assert.ok(slowest < 1000, `another client's slowest call took ${slowest.toFixed(1)} ms during the abuse (${context})`);
}

/** Times another client's calls, one after another, until `done` settles. */
export async function timeCallsUntil(client: PlaneClient, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  const latencies: number[] = [];
  while (!finished) {
    const start = performance.now();
    await client.call('fleet_status', {});
    latencies.push(performance.now() - start);
  }
  return latencies;
}
