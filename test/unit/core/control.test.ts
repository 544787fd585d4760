import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ControlState } from '../../../contracts/index.js';
import { claim } from '../../../server/core/claim.js';
import type { Caller } from '../../../server/core/context.js';
import { setControl } from '../../../server/core/control.js';
import { checkPaths } from '../../../server/core/path-check.js';
import { heartbeat, leave } from '../../../server/core/roster.js';
import { release, renew } from '../../../server/core/territory.js';
import {
  OPERATOR,
  SCOPE,
  claimNow,
  eventsOfType,
  expectRefusedUnchanged,
  joinAgent,
  makeHarness,
  runRecording,
  type Harness,
} from '../../support/core-harness.js';

const set = (h: Harness, caller: Caller, state: ControlState, reason?: string) => h.core.run(caller, (ctx) => setControl(ctx, caller, state, reason));

function fleet() {
  const h = makeHarness();
  return { h, atlas: joinAgent(h, 'ATLAS'), boreas: joinAgent(h, 'BOREAS'), rte: joinAgent(h, 'RTE1', { role: 'rte' }) };
}

test('the fleet starts in run, set by the plane', () => {
  const h = makeHarness();
  assert.equal(h.core.state.control.state, 'run');
  assert.equal(h.core.state.control.setBy, 'plane');
});

for (const state of ['pause', 'stop'] as const) {
  test(`${state}: a new claim is refused by control (a normal result, not an error) and grants nothing`, () => {
    const { h, atlas } = fleet();
    set(h, OPERATOR, state, 'maintenance');
    const { result, emitted } = runRecording(h, atlas.caller, (ctx) => claim(ctx, atlas.caller, { scope: SCOPE, patterns: ['src/**'] }, h.core.queue));
    assert.ok(!(result instanceof Promise));
    assert.deepEqual(result, { granted: false, refusedBy: 'control', claims: [], conflicts: [] });
    assert.deepEqual(emitted, []);
    const waiting = h.core.run(atlas.caller, (ctx) => claim(ctx, atlas.caller, { scope: SCOPE, patterns: ['src/**'], waitSeconds: 30 }, h.core.queue));
    assert.ok(!(waiting instanceof Promise), 'a claim that would wait is refused at once too');
    assert.equal(waiting.refusedBy, 'control');
    assert.equal(h.core.state.claims.size, 0);
  });
}

test('pause: releases, heartbeats, checks, renewals and leaving still work', () => {
  const { h, atlas, boreas } = fleet();
  const c = claimNow(h, atlas.caller, { patterns: ['src/**', 'lib/**'], ttlSeconds: 60 }).claims;
  claimNow(h, boreas.caller, { patterns: ['docs/**'] });
  set(h, OPERATOR, 'pause');
  h.core.run(atlas.caller, (ctx) => heartbeat(ctx, atlas.caller, { status: 'idle' }));
  assert.equal(h.core.run(atlas.caller, (ctx) => checkPaths(ctx, atlas.caller, SCOPE, ['src/a.ts']))[0]!.allowed, true);
  assert.equal(h.core.run(atlas.caller, (ctx) => renew(ctx, atlas.caller, { claimIds: [c[1]!.id] })).length, 1);
  assert.deepEqual(h.core.run(atlas.caller, (ctx) => release(ctx, atlas.caller, { claimIds: [c[0]!.id] })), [c[0]!.id]);
  h.core.run(boreas.caller, (ctx) => leave(ctx, boreas.caller));
  assert.equal(h.core.state.claims.size, 1);
});

test('a retried request id still returns its earlier grant in pause', () => {
  const { h, atlas } = fleet();
  const first = claimNow(h, atlas.caller, { patterns: ['src/**'], requestId: 'r1' });
  set(h, OPERATOR, 'pause');
  const retry = claimNow(h, atlas.caller, { patterns: ['src/**'], requestId: 'r1' });
  assert.equal(retry.granted, true);
  assert.deepEqual(retry.claims, first.claims);
});

test('drain: claims and renewals still work', () => {
  const { h, atlas } = fleet();
  set(h, OPERATOR, 'drain');
  const out = claimNow(h, atlas.caller, { patterns: ['src/**'], ttlSeconds: 60 });
  assert.equal(out.granted, true);
  assert.equal(h.core.run(atlas.caller, (ctx) => renew(ctx, atlas.caller, {})).length, 1);
});

test('agents may move the switch only toward safety: run → drain → pause → stop', () => {
  const { h, atlas, boreas, rte } = fleet();
  set(h, atlas.caller, 'drain', 'tests are red');
  assert.equal(h.core.state.control.state, 'drain');
  set(h, rte.caller, 'pause');
  assert.equal(h.core.state.control.state, 'pause');
  expectRefusedUnchanged(h, boreas.caller, 'FORBIDDEN', (ctx) => setControl(ctx, boreas.caller, 'drain'));
  expectRefusedUnchanged(h, rte.caller, 'FORBIDDEN', (ctx) => setControl(ctx, rte.caller, 'run'));
  set(h, boreas.caller, 'stop');
  for (const back of ['pause', 'drain', 'run'] as const) {
    expectRefusedUnchanged(h, atlas.caller, 'FORBIDDEN', (ctx) => setControl(ctx, atlas.caller, back));
    expectRefusedUnchanged(h, rte.caller, 'FORBIDDEN', (ctx) => setControl(ctx, rte.caller, back));
  }
  assert.equal(h.core.state.control.state, 'stop');
});

test('an agent may jump straight to a safer state (run → stop)', () => {
  const { h, rte } = fleet();
  set(h, rte.caller, 'stop');
  assert.equal(h.core.state.control.state, 'stop');
});

test('the operator may move the switch back toward run, from any state', () => {
  const { h, rte } = fleet();
  for (const [from, to] of [['stop', 'pause'], ['stop', 'run'], ['pause', 'drain'], ['drain', 'run']] as const) {
    set(h, rte.caller, from);
    set(h, OPERATOR, to, `back to ${to}`);
    assert.equal(h.core.state.control.state, to);
  }
});

test('an agent with role operator may resume too', () => {
  const { h, rte } = fleet();
  const dana = joinAgent(h, 'DANA', { role: 'operator' });
  set(h, rte.caller, 'pause');
  set(h, dana.caller, 'run');
  assert.equal(h.core.state.control.state, 'run');
  assert.equal(h.core.state.control.setBy, 'DANA');
});

test('every change records who made it, when, and why', () => {
  const { h, atlas } = fleet();
  h.clock.advance(5_000);
  const { emitted } = runRecording(h, atlas.caller, (ctx) => setControl(ctx, atlas.caller, 'pause', 'disk full'));
  assert.deepEqual(h.core.state.control, { state: 'pause', reason: 'disk full', setBy: 'ATLAS', setAt: h.clock.now() });
  const [event] = eventsOfType(emitted, 'control.set');
  assert.equal(event!.by, 'ATLAS');
  assert.equal(event!.state, 'pause');
  assert.equal(event!.reason, 'disk full');
  h.clock.advance(5_000);
  set(h, OPERATOR, 'run');
  assert.deepEqual(h.core.state.control, { state: 'run', reason: undefined, setBy: 'dana', setAt: h.clock.now() });
});

test('after resume, claims are granted again', () => {
  const { h, atlas } = fleet();
  set(h, OPERATOR, 'pause');
  assert.equal(claimNow(h, atlas.caller, { patterns: ['src/**'] }).refusedBy, 'control');
  set(h, OPERATOR, 'run');
  assert.equal(claimNow(h, atlas.caller, { patterns: ['src/**'] }).granted, true);
});
