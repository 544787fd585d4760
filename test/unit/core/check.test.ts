import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import type { Caller } from '../../../server/core/context.js';
import { checkPaths } from '../../../server/core/path-check.js';
import { release } from '../../../server/core/territory.js';
import {
  FakeClock,
  OPERATOR,
  OTHER_SCOPE,
  SCOPE,
  TTL_MS,
  claimNow,
  expectFleetError,
  iso,
  joinAgent,
  makeHarness,
  restoreHarness,
  type Harness,
} from '../../support/core-harness.js';

const check = (h: Harness, caller: Caller, paths: string[], scope = SCOPE) => h.core.run(caller, (ctx) => checkPaths(ctx, caller, scope, paths));
const allowed = (h: Harness, caller: Caller, path: string, scope = SCOPE) => check(h, caller, [path], scope)[0]!.allowed;

function fleet() {
  const h = makeHarness();
  return { h, atlas: joinAgent(h, 'ATLAS'), boreas: joinAgent(h, 'BOREAS') };
}

test('an agent may write a path it holds exclusively; the verdict names the holder, mode and expiry', () => {
  const { h, atlas } = fleet();
  const c = claimNow(h, atlas.caller, { patterns: ['src/**'], ttlSeconds: 60 }).claims[0]!;
  const [verdict] = check(h, atlas.caller, ['src/a/b.ts']);
  assert.equal(verdict!.path, 'src/a/b.ts');
  assert.equal(verdict!.allowed, true);
  assert.deepEqual(verdict!.holders, [{ callsign: 'ATLAS', mode: 'exclusive', pattern: 'src/**', expiresAt: c.expiresAt }]);
});

test('an agent may not write an unclaimed path, but a person may', () => {
  const { h, atlas } = fleet();
  const [agentVerdict] = check(h, atlas.caller, ['src/a.ts']);
  assert.equal(agentVerdict!.allowed, false);
  assert.deepEqual(agentVerdict!.holders, []);
  assert.equal(allowed(h, OPERATOR, 'src/a.ts'), true);
});

test('an agent may not write a path another agent holds exclusively; neither may a person', () => {
  const { h, atlas, boreas } = fleet();
  claimNow(h, boreas.caller, { patterns: ['src/**'] });
  const [verdict] = check(h, atlas.caller, ['src/a.ts']);
  assert.equal(verdict!.allowed, false);
  assert.equal(verdict!.holders[0]!.callsign, 'BOREAS');
  assert.equal(verdict!.holders[0]!.mode, 'exclusive');
  assert.equal(verdict!.holders[0]!.expiresAt, iso(h.clock.now() + 2 * TTL_MS));
  assert.equal(allowed(h, OPERATOR, 'src/a.ts'), false);
  assert.equal(allowed(h, OPERATOR, 'lib/a.ts'), true);
});

test('shared claims: each sharing agent may write, a non-holder agent may not, a person may', () => {
  const { h, atlas, boreas } = fleet();
  const cyrus = joinAgent(h, 'CYRUS');
  claimNow(h, atlas.caller, { patterns: ['package.json'], mode: 'shared' });
  claimNow(h, boreas.caller, { patterns: ['*.json'], mode: 'shared' });
  const [verdict] = check(h, atlas.caller, ['package.json']);
  assert.equal(verdict!.allowed, true);
  assert.deepEqual(verdict!.holders.map((x) => x.callsign).sort(), ['ATLAS', 'BOREAS']);
  assert.equal(allowed(h, boreas.caller, 'package.json'), true);
  assert.equal(allowed(h, cyrus.caller, 'package.json'), false);
  assert.equal(allowed(h, OPERATOR, 'package.json'), true);
});

test('a shared claim does not allow a write where another agent holds the path exclusively', () => {
  // Territory never grants such a pair, so the state is built from recorded events: the check
  // must still hold on its own, whatever the log contains.
  const clock = new FakeClock();
  const t = clock.now();
  const tail: FleetEvent[] = [
    { seq: 1, at: t, type: 'agent.joined', agentId: 'ag-a', callsign: 'ATLAS', runtime: 'x', role: 'worker', tier: 'local', tokenHash: 'h1' },
    { seq: 2, at: t, type: 'agent.joined', agentId: 'ag-b', callsign: 'BOREAS', runtime: 'x', role: 'worker', tier: 'local', tokenHash: 'h2' },
    { seq: 3, at: t, type: 'claim.granted', claimId: 'cl-1', agentId: 'ag-a', scope: SCOPE, pattern: 'src/**', mode: 'shared', fence: 1 },
    { seq: 4, at: t, type: 'claim.granted', claimId: 'cl-2', agentId: 'ag-b', scope: SCOPE, pattern: 'src/core/**', mode: 'exclusive', fence: 2 },
  ];
  const h = restoreHarness({ snapshot: null, tail }, {}, clock);
  const atlas: Caller = { kind: 'agent', agentId: 'ag-a' };
  const boreas: Caller = { kind: 'agent', agentId: 'ag-b' };
  assert.equal(allowed(h, atlas, 'src/core/x.ts'), false);
  assert.equal(allowed(h, atlas, 'src/util.ts'), true);
  assert.equal(allowed(h, boreas, 'src/core/x.ts'), true, 'the exclusive holder may write; shared holders do not block it');
  assert.equal(allowed(h, OPERATOR, 'src/core/x.ts'), false);
  assert.equal(allowed(h, OPERATOR, 'src/util.ts'), true);
});

test('an expired claim is no claim: a lapsed TTL claim neither allows its holder nor blocks anyone', () => {
  const { h, atlas, boreas } = fleet();
  claimNow(h, boreas.caller, { patterns: ['src/**'], ttlSeconds: 10 });
  assert.equal(allowed(h, OPERATOR, 'src/a.ts'), false);
  h.clock.advance(10_000);
  const [verdict] = check(h, boreas.caller, ['src/a.ts']);
  assert.equal(verdict!.allowed, false, 'the holder may no longer write under a lapsed claim');
  assert.deepEqual(verdict!.holders, []);
  assert.equal(allowed(h, OPERATOR, 'src/a.ts'), true);
  assert.equal(allowed(h, atlas.caller, 'src/a.ts'), false);
});

test('an expired agent’s claims are no claims: a person may write there again', () => {
  const { h, boreas } = fleet();
  claimNow(h, boreas.caller, { patterns: ['src/**'] });
  h.clock.advance(2 * TTL_MS);
  const [verdict] = check(h, OPERATOR, ['src/a.ts']);
  assert.equal(verdict!.allowed, true);
  assert.deepEqual(verdict!.holders, []);
});

test('a released claim no longer allows its holder', () => {
  const { h, atlas } = fleet();
  claimNow(h, atlas.caller, { patterns: ['src/**'] });
  h.core.run(atlas.caller, (ctx) => release(ctx, atlas.caller, { patterns: ['src/**'] }));
  assert.equal(allowed(h, atlas.caller, 'src/a.ts'), false);
});

test('several paths get one verdict each, in order; dotfiles are covered like any other file', () => {
  const { h, atlas } = fleet();
  claimNow(h, atlas.caller, { patterns: ['**/*.yml'] });
  const verdicts = check(h, atlas.caller, ['.github/workflows/ci.yml', 'src/a.ts', './config//app.yml']);
  assert.deepEqual(verdicts.map((v) => [v.path, v.allowed]), [
    ['.github/workflows/ci.yml', true],
    ['src/a.ts', false],
    ['config/app.yml', true],
  ]);
});

test('a check only sees the territory of its own scope', () => {
  const { h, atlas, boreas } = fleet();
  claimNow(h, boreas.caller, { patterns: ['src/**'] });
  claimNow(h, atlas.caller, { patterns: ['src/**'], scope: OTHER_SCOPE });
  assert.equal(allowed(h, atlas.caller, 'src/a.ts', OTHER_SCOPE), true);
  assert.equal(allowed(h, atlas.caller, 'src/a.ts', SCOPE), false);
  assert.equal(allowed(h, OPERATOR, 'src/a.ts', OTHER_SCOPE), false);
});

test('a bad path is INVALID_PARAMS', () => {
  const { h, atlas } = fleet();
  for (const bad of ['../etc/passwd', '/abs/file', '', 'a\\b']) {
    expectFleetError(() => check(h, atlas.caller, ['ok.ts', bad]), 'INVALID_PARAMS');
  }
});

test('the check is read-only: it emits no event', () => {
  const { h, atlas } = fleet();
  claimNow(h, atlas.caller, { patterns: ['src/**'] });
  const before = h.events.length;
  check(h, atlas.caller, ['src/a.ts', 'b']);
  check(h, OPERATOR, ['src/a.ts']);
  assert.equal(h.events.length, before);
});
