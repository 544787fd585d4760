import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  compilePattern,
  GlobBudget,
  matchWithin,
  MAX_PATTERN_COMPLEXITY,
  normalizePattern,
  overlapWithin,
  overlapWitness,
  PAIR_GLOB_BUDGET,
  UNDECIDED,
  type CompiledPattern,
} from '../../../server/core/glob/index.js';
import { compileClaimPattern } from '../../../server/core/patterns.js';
import { expectFleetError } from '../../support/core-harness.js';
import { EDGE_SHAPE_COUNT, edgePattern, justOverEdgePattern, PATHOLOGICAL_SHAPES, pathologicalPattern, type PathologicalShape } from '../../support/pathological-patterns.js';

const compile = (pattern: string): CompiledPattern => compilePattern(normalizePattern(pattern));
const EDGES = Array.from({ length: EDGE_SHAPE_COUNT }, (_, i) => edgePattern(i));
const SHAPES = Object.keys(PATHOLOGICAL_SHAPES) as PathologicalShape[];

/** Runs an overlap test with a budget of `steps`; returns the outcome and the steps it spent. */
function measured(a: CompiledPattern, b: CompiledPattern, steps: number, pairCap = PAIR_GLOB_BUDGET) {
  const budget = new GlobBudget(steps);
  const outcome = overlapWithin(a, b, budget, pairCap);
  return { outcome, spent: steps - budget.remaining };
}

test('a glob pattern at the complexity limit is claimable; one token more is PATTERN_TOO_COMPLEX', () => {
  for (let i = 0; i < EDGE_SHAPE_COUNT; i++) {
    assert.ok(compileClaimPattern(edgePattern(i)).complexity <= MAX_PATTERN_COMPLEXITY, edgePattern(i));
    const over = justOverEdgePattern(i);
    const error = expectFleetError(() => compileClaimPattern(over), 'PATTERN_TOO_COMPLEX');
    assert.match(error.message, new RegExp(`limit ${MAX_PATTERN_COMPLEXITY}`));
    assert.match(error.message, /Instead, /, 'the message says what to write instead');
  }
});

test('plain paths and plain directories are never too complex, however long', () => {
  const long = `${'dir/'.repeat(200)}file.ts`;
  assert.equal(compileClaimPattern(long).complexity, 0);
  assert.equal(compileClaimPattern(`${'dir/'.repeat(200)}`).complexity, 0);
});

test('the refusal says why: brace alternatives → split the group; long star runs → fewer "*" runs or a directory pattern', () => {
  const braces = expectFleetError(() => compileClaimPattern(pathologicalPattern('brace groups over segments', 'b')), 'PATTERN_TOO_COMPLEX');
  assert.match(braces.message, /brace alternatives add up to \d+ or more path segments/);
  assert.match(braces.message, /split the "\{…\}" group into several patterns/);
  const stars = expectFleetError(() => compileClaimPattern(pathologicalPattern('star runs', 'b')), 'PATTERN_TOO_COMPLEX');
  assert.match(stars.message, /wildcard segments add up to \d+ or more characters/);
  assert.match(stars.message, /fewer "\*" runs .* "src\/api\/\*\*"/);
});

test("every issue-14 pathological pattern is refused at claim time, though normalization (the old rules) accepts it", () => {
  for (const shape of SHAPES) {
    const pattern = pathologicalPattern(shape, 'b');
    assert.ok(pattern.length <= 1024, `${shape} is legal by length`);
    normalizePattern(pattern);
    expectFleetError(() => compileClaimPattern(pattern), 'PATTERN_TOO_COMPLEX');
  }
});

test('any two patterns within the limit decide their overlap within one pair budget, and exactly', () => {
  for (const a of EDGES) {
    for (const b of EDGES) {
      const { outcome, spent } = measured(compile(a), compile(b), 1e12, 1e12);
      assert.notEqual(outcome, UNDECIDED);
      assert.ok(spent <= PAIR_GLOB_BUDGET, `${a} × ${b} spent ${spent} > ${PAIR_GLOB_BUDGET}`);
      assert.equal(measured(compile(a), compile(b), PAIR_GLOB_BUDGET).outcome, outcome, 'the capped test agrees');
    }
  }
});

test('pathological pairs are cut off within one pair budget (never decided slowly), and the cut-off says UNDECIDED, not "disjoint"', () => {
  for (const shape of SHAPES) {
    const a = compile(pathologicalPattern(shape, 'b'));
    for (const b of [compile(pathologicalPattern(shape, 'c')), compile(EDGES[0]!), compile('*b')]) {
      const { outcome, spent } = measured(a, b, 1e12);
      assert.ok(spent <= PAIR_GLOB_BUDGET, `${shape} × ${b.source.slice(0, 20)}…: spent ${spent}`);
      if (outcome !== UNDECIDED) assert.equal(outcome, overlapWitness(a, b), `${shape}: a decided answer is the exact one`);
    }
  }
  // The pairs that ran for minutes (40 s to 5 min) stop at once.
  for (const shape of ['brace groups over star runs', 'brace groups over segments'] as const) {
    assert.equal(measured(compile(pathologicalPattern(shape, 'b')), compile(pathologicalPattern(shape, 'c')), 1e12).outcome, UNDECIDED, shape);
  }
});

test('the steps a test spends are the same every time (deterministic, not timed)', () => {
  const a = compile(EDGES[0]!);
  const b = compile(EDGES[4]!);
  assert.equal(measured(a, b, 1e9).spent, measured(a, b, 1e9).spent);
});

test('a request budget that runs out mid-test answers UNDECIDED and is never overdrawn', () => {
  const a = compile(EDGES[1]!);
  const b = compile(EDGES[2]!);
  const full = measured(a, b, 1e9).spent;
  for (const steps of [0, 1, 31, 32, Math.floor(full / 2), full - 1]) {
    const { outcome, spent } = measured(a, b, steps);
    assert.equal(outcome, UNDECIDED, `with ${steps} of ${full} steps`);
    assert.ok(spent <= steps);
  }
  assert.notEqual(measured(a, b, full).outcome, UNDECIDED, 'exactly enough is enough');
});

test('a path match is charged by pattern complexity and path length, and UNDECIDED when the budget cannot pay', () => {
  const pattern = compile(EDGES[0]!);
  const cost = (path: string): number => matchCost(pattern, path);
  const path = 'a'.repeat(300);
  assert.equal(matchWithin(pattern, path, new GlobBudget(1e9)), true);
  assert.ok(cost(`${path}${path}`) > cost(path), 'a longer path costs more');
  assert.ok(cost(path) > matchCost(compile('*a'), path), 'a more complex pattern costs more');
  const short = new GlobBudget(cost(path) - 1);
  assert.equal(matchWithin(pattern, path, short), UNDECIDED);
  assert.equal(short.remaining, cost(path) - 1, 'nothing spent on an unaffordable match');
});

function matchCost(pattern: CompiledPattern, path: string): number {
  const budget = new GlobBudget(1e9);
  matchWithin(pattern, path, budget);
  return 1e9 - budget.remaining;
}
