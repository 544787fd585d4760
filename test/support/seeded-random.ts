// Seeded randomness for the heavy suites: one seed per run, printed, and FLEET_TEST_SEED replays it.
import { seededRandom } from '../../server/core/seeded-random.js';

/** A small, fast, seedable PRNG (mulberry32) with the helpers the load generators need. */
export class SeededRandom {
  /** A float in [0, 1). */
  readonly next: () => number;

  constructor(private readonly seed: number) {
    this.next = seededRandom(seed);
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight: `weight(item)` must be positive for at least one item. */
  pickWeighted<T>(items: readonly T[], weight: (item: T) => number): T {
    const total = items.reduce((sum, item) => sum + weight(item), 0);
    let roll = this.next() * total;
    for (const item of items) {
      roll -= weight(item);
      if (roll < 0) return item;
    }
    return items[items.length - 1]!;
  }

  /** `count` distinct items (fewer when the list is shorter). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]!);
    return out;
  }

  /** An independent stream for one participant, so each agent's choices depend only on the seed and its index. */
  fork(index: number): SeededRandom {
    return new SeededRandom(Math.imul(this.seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35));
  }
}

/** The run's seed: FLEET_TEST_SEED when set (to replay a failure), else a fresh one. */
export function testSeed(): number {
  const raw = process.env.FLEET_TEST_SEED;
  if (raw !== undefined && raw !== '') {
    const seed = Number(raw);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`FLEET_TEST_SEED=${raw} is not an integer in 0..4294967295`);
    return seed;
  }
  return Math.floor(Math.random() * 0xffffffff);
}
