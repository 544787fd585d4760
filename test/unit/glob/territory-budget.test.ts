import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import { claim } from '../../../server/core/claim.js';
import { checkPaths } from '../../../server/core/path-check.js';
import { grant, prepareClaim, release } from '../../../server/core/territory.js';
import { addWork } from '../../../server/core/work-queue.js';
import { OPERATOR, SCOPE, claimNow, eventsOfType, expectRefusedUnchanged, joinAgent, makeHarness, restoreHarness } from '../../support/core-harness.js';
import { edgePattern, pathologicalPattern } from '../../support/pathological-patterns.js';

/** Takes 40 s to 5 min to compare with its twin without a budget (issue 14). */
const PATHOLOGICAL = pathologicalPattern('brace groups over star runs', 'b');
/** Within the limit, and disjoint from PATHOLOGICAL (it ends in "a", that one in "b"), but too costly to prove so. */
const EDGE_ENDING_IN_A = edgePattern(0);

/**
 * A plane whose log recorded ATLAS's claim of PATHOLOGICAL, as one granted before the limit
 * existed would have: the recorded event is replayed, never re-checked.
 */
function planeWithGrandfatheredClaim() {
  const before = makeHarness();
  const atlas = joinAgent(before, 'ATLAS');
  claimNow(before, atlas.caller, { patterns: ['placeholder.txt'] });
  const log = before.events.map((event): FleetEvent => (event.type === 'claim.granted' ? { ...event, pattern: PATHOLOGICAL } : event));
  const h = restoreHarness({ snapshot: null, tail: log }, {}, before.clock, before.ids);
  return { h, atlas, boreas: joinAgent(h, 'BOREAS') };
}

test('replay keeps a recorded claim that today\'s limit would refuse (grandfathered)', () => {
  const { h, atlas } = planeWithGrandfatheredClaim();
  const held = [...h.core.state.claims.values()];
  assert.deepEqual(held.map((c) => [c.agentId, c.pattern]), [[atlas.agentId, PATHOLOGICAL]]);
});

test('a new claim the budget cannot compare with a grandfathered one is refused as a conflict, never granted beside it', () => {
  const { h, boreas } = planeWithGrandfatheredClaim();
  const out = claimNow(h, boreas.caller, { patterns: [EDGE_ENDING_IN_A] });
  assert.equal(out.granted, false);
  assert.equal(out.refusedBy, 'conflict');
  assert.deepEqual(out.conflicts.map((c) => [c.holder, c.heldPattern]), [['ATLAS', PATHOLOGICAL]]);
  assert.equal(eventsOfType(h.events, 'claim.granted').length, 0);
});

test('the same pathological pattern as a new claim is PATTERN_TOO_COMPLEX, and nothing changes', () => {
  const { h, boreas } = planeWithGrandfatheredClaim();
  const error = expectRefusedUnchanged(h, boreas.caller, 'PATTERN_TOO_COMPLEX', (ctx) => claim(ctx, boreas.caller, { scope: SCOPE, patterns: ['docs/**', PATHOLOGICAL] }, h.core.queue));
  assert.match(error.message, /too complex to compare with other claims .* Instead, /);
});

test('a path the budget cannot match against a grandfathered claim is denied to everyone else, and not granted to its holder', () => {
  const { h, atlas, boreas } = planeWithGrandfatheredClaim();
  const check = (caller: typeof OPERATOR, path: string) => h.core.run(caller, (ctx) => checkPaths(ctx, caller, SCOPE, [path]))[0]!;
  // Short enough to match within the budget: decided exactly, and not covered.
  assert.equal(check(OPERATOR, 'acab').allowed, true);
  // Matched by the pattern, but too long to match against it within one comparison's budget.
  const covered = `acegik${'a'.repeat(1500)}b`;
  assert.equal(check(OPERATOR, covered).allowed, false);
  assert.deepEqual(check(OPERATOR, covered).holders.map((x) => x.callsign), ['ATLAS']);
  assert.equal(check(boreas.caller, covered).allowed, false);
  assert.equal(check(atlas.caller, covered).allowed, false, 'undecided is no proof that ATLAS holds it');
});

test('a grandfathered claim can still be released by its pattern', () => {
  const { h, atlas } = planeWithGrandfatheredClaim();
  const released = h.core.run(atlas.caller, (ctx) => release(ctx, atlas.caller, { scope: SCOPE, patterns: [PATHOLOGICAL] }));
  assert.equal(released.length, 1);
  assert.equal(h.core.state.claims.size, 0);
});

test('a request whose comparisons exceed the request budget is PATTERN_TOO_COMPLEX, all or nothing', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const boreas = joinAgent(h, 'BOREAS');
  // Shared claims coexist, so ATLAS can hold several patterns at the limit at once.
  const held = ['x', 'y', 'z', 'w', 'v'].map((end) => `${edgePattern(0).slice(0, -2)}${end}`);
  assert.equal(claimNow(h, atlas.caller, { patterns: held, mode: 'shared' }).granted, true);
  const error = expectRefusedUnchanged(h, boreas.caller, 'PATTERN_TOO_COMPLEX', (ctx) => claim(ctx, boreas.caller, { scope: SCOPE, patterns: ['docs/**', edgePattern(1)] }, h.core.queue));
  assert.match(error.message, /claim fewer patterns per request/);
  assert.equal(claimNow(h, boreas.caller, { patterns: ['docs/**'] }).granted, true, 'a cheap request right after is decided as usual');
});

test('a claim pattern is compiled once: the territory index keeps the very object the request compiled', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  h.core.run(atlas.caller, (ctx) => {
    const request = prepareClaim(atlas.agentId, { scope: SCOPE, patterns: ['src/**/*.ts'] });
    const [granted] = grant(ctx, request);
    assert.equal(ctx.indexes.territory.compiledOf(ctx.state.claims.get(granted!.id)!), request.patterns[0]);
  });
});

test('a work item whose path is too complex is refused when added, not when pulled', () => {
  const h = makeHarness();
  expectRefusedUnchanged(h, OPERATOR, 'PATTERN_TOO_COMPLEX', (ctx) => addWork(ctx, OPERATOR, { title: 't', scope: SCOPE, paths: [PATHOLOGICAL] }));
});

test('the new patterns of one request are bounded together: nine at the complexity limit are refused before the plane compares any, eight are not', () => {
  const h = makeHarness();
  const mallory = joinAgent(h, 'MALLORY');
  // Distinct patterns at the limit: each edge shape with other endings.
  const atLimit = (count: number) => Array.from({ length: count }, (_, i) => `${edgePattern(i % 6).slice(0, -1)}${'abcdefghij'[Math.floor(i / 6)]}`);
  const error = expectRefusedUnchanged(h, mallory.caller, 'PATTERN_TOO_COMPLEX', (ctx) => claim(ctx, mallory.caller, { scope: SCOPE, patterns: atLimit(9) }, h.core.queue));
  assert.match(error.message, /together weigh more than one request may compile and compare.*several requests/);
  const eight = claimNow(h, mallory.caller, { patterns: atLimit(8) });
  assert.equal(eight.granted, true);
  // A work item's recorded paths are grandfathered: the request bound is for new patterns only.
  assert.doesNotThrow(() => prepareClaim(mallory.agentId, { scope: SCOPE, patterns: atLimit(9) }, (pattern) => prepareClaim(mallory.agentId, { scope: SCOPE, patterns: [pattern] }).patterns[0]!));
});
