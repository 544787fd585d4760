import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePattern, normalizePath, normalizePattern, overlapWitness, PatternError } from '../../../server/core/glob/index.js';
import { allStrings, bruteForceWitness, isRepositoryPath, oracleMatches, poolFor, SegmentPool, seededRandom } from './brute-force.js';
import { OVERLAP_CASES } from './overlap-cases.js';

const PAIRS = 2500;
const MAX_DEPTH = 4;
const seed = process.env.GLOB_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.GLOB_SEED);

/**
 * Checks one pair both ways: a witness from overlapWitness must match both patterns by minimatch,
 * and a witness the brute-force search finds means overlapWitness must have found one too.
 * Returns overlapWitness's witness.
 */
function crossCheck(a: string, b: string, pool: SegmentPool, context: string): string | undefined {
  const witness = overlapWitness(compilePattern(a), compilePattern(b));
  if (witness !== undefined) {
    assert.ok(isRepositoryPath(witness) && normalizePath(witness) === witness, `${context}: witness ${JSON.stringify(witness)} is a repository path`);
    assert.ok(oracleMatches(a, witness), `${context}: minimatch(${JSON.stringify(witness)}, ${JSON.stringify(a)})`);
    assert.ok(oracleMatches(b, witness), `${context}: minimatch(${JSON.stringify(witness)}, ${JSON.stringify(b)})`);
    return witness;
  }
  const found = bruteForceWitness(a, b, pool, MAX_DEPTH);
  assert.equal(found, undefined, `${context}: overlaps says disjoint, but minimatch matches ${JSON.stringify(found)} with both`);
  return undefined;
}

// Patterns over a tiny alphabet, so that the pool below holds a representative of every kind of
// segment they can tell apart, and witnesses (when they exist) are short enough to be found.
const CHARS = ['a', 'b', '.'];
const CLASSES = ['[ab]', '[!a]', '[a-b]', '[^.]', '[.a]', '[!.b]', '[b-a]'];

function randomPattern(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const token = (): string => {
    const r = random();
    return r < 0.45 ? pick(CHARS) : r < 0.7 ? '*' : r < 0.82 ? '?' : pick(CLASSES);
  };
  const segment = (): string => Array.from({ length: 1 + Math.floor(random() * 3) }, token).join('');
  const part = (): string => {
    const r = random();
    if (r < 0.25) return '**';
    if (r < 0.35) return `{${segment()},${segment()}}`;
    if (r < 0.4) return `{${segment()}/${segment()},${segment()}}`;
    return segment();
  };
  const pattern = Array.from({ length: 1 + Math.floor(random() * 3) }, part).join('/');
  return random() < 0.05 ? `${pattern}/` : pattern;
}

function randomValidPattern(random: () => number): string {
  for (;;) {
    try {
      return normalizePattern(randomPattern(random));
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
    }
  }
}

test(`${PAIRS} random pattern pairs agree with brute-force minimatch search (GLOB_SEED=${seed})`, () => {
  const random = seededRandom(seed);
  const pool = new SegmentPool(allStrings(['a', 'b', '.', 'z'], 4));
  let overlapping = 0;
  let confirmed = 0;
  for (let n = 0; n < PAIRS; n++) {
    const a = randomValidPattern(random);
    const b = randomValidPattern(random);
    const context = `pair ${n} ${JSON.stringify(a)} × ${JSON.stringify(b)} (reproduce with GLOB_SEED=${seed})`;
    if (crossCheck(a, b, pool, context) === undefined) continue;
    overlapping++;
    if (bruteForceWitness(a, b, pool, MAX_DEPTH) !== undefined) confirmed++;
  }
  // A generator that made almost only overlapping (or only disjoint) pairs would test little.
  assert.ok(overlapping > PAIRS * 0.2 && overlapping < PAIRS * 0.8, `${overlapping} of ${PAIRS} pairs overlap (GLOB_SEED=${seed})`);
  // The search only catches a wrong "disjoint" if it finds witnesses where they exist: check it does.
  assert.ok(confirmed >= overlapping * 0.95, `brute force found a witness for only ${confirmed} of ${overlapping} overlapping pairs (GLOB_SEED=${seed})`);
});

test('every row of the overlap table agrees with brute-force minimatch search', () => {
  for (const [rawA, rawB, expected] of OVERLAP_CASES) {
    const a = normalizePattern(rawA);
    const b = normalizePattern(rawB);
    const context = `${rawA} × ${rawB}`;
    const pool = poolFor(a, b);
    const witness = crossCheck(a, b, pool, context);
    const found = bruteForceWitness(a, b, pool, MAX_DEPTH);
    if (found !== undefined) assert.ok(expected, `${context}: the table says disjoint, but minimatch matches ${JSON.stringify(found)} with both`);
    if (expected) assert.ok((found ?? witness) !== undefined, `${context}: the table says overlap, but no path matching both was found`);
  }
});
