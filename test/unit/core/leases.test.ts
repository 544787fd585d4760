import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Caller } from '../../../server/core/context.js';
import { lease, RTE_LEASE, type LeaseRequest } from '../../../server/core/leases.js';
import { heartbeat, leave } from '../../../server/core/roster.js';
import {
  LEASE_TTL_MS,
  OPERATOR,
  TTL_MS,
  eventsOfType,
  expectRefusedUnchanged,
  iso,
  joinAgent,
  makeHarness,
  runRecording,
  type Harness,
} from '../../support/core-harness.js';

const call = (h: Harness, caller: Caller, req: LeaseRequest) => h.core.run(caller, (ctx) => lease(ctx, caller, req));

function rtes() {
  const h = makeHarness();
  return { h, rte1: joinAgent(h, 'ATLAS', { role: 'rte' }), rte2: joinAgent(h, 'BOREAS', { role: 'rte' }), worker: joinAgent(h, 'CYRUS') };
}

test('acquire: the first claimant holds the RTE lease (default name) with a fence and the default TTL', () => {
  const { h, rte1 } = rtes();
  const { result, emitted } = runRecording(h, rte1.caller, (ctx) => lease(ctx, rte1.caller, { action: 'acquire' }));
  assert.deepEqual(result, { name: RTE_LEASE, held: true, holder: 'ATLAS', expiresAt: iso(h.clock.now() + LEASE_TTL_MS), fence: 1 });
  assert.equal(RTE_LEASE, 'coordination/rte-lock');
  assert.deepEqual(emitted.map((e) => e.type), ['lease.acquired']);
});

test('one holder at a time: a second claimant gets held:false naming the holder, and nothing changes', () => {
  const { h, rte1, rte2 } = rtes();
  const first = call(h, rte1.caller, { action: 'acquire', ttlSeconds: 90 });
  const { result, emitted } = runRecording(h, rte2.caller, (ctx) => lease(ctx, rte2.caller, { action: 'acquire' }));
  assert.deepEqual(result, { name: RTE_LEASE, held: false, holder: 'ATLAS', expiresAt: first.expiresAt, fence: first.fence });
  assert.deepEqual(emitted, []);
  assert.equal(h.core.state.leases.get(RTE_LEASE)!.agentId, rte1.agentId);
});

test('the holder renews (by renew or by acquiring again) and keeps its fence', () => {
  const { h, rte1, rte2 } = rtes();
  const first = call(h, rte1.caller, { action: 'acquire', ttlSeconds: 30 });
  h.clock.advance(20_000);
  const renewed = call(h, rte1.caller, { action: 'renew', ttlSeconds: 30, fence: first.fence });
  assert.equal(renewed.held, true);
  assert.equal(renewed.fence, first.fence);
  assert.equal(renewed.expiresAt, iso(h.clock.now() + 30_000));
  h.clock.advance(20_000);
  assert.equal(call(h, rte2.caller, { action: 'acquire' }).held, false, 'past the first expiry, still held thanks to the renewal');
  const again = call(h, rte1.caller, { action: 'acquire', ttlSeconds: 30 });
  assert.equal(again.fence, first.fence);
  assert.equal(eventsOfType(h.events, 'lease.renewed').length, 2);
});

test('only the holder renews or releases: others get NOT_HOLDER and nothing changes', () => {
  const { h, rte1, rte2 } = rtes();
  call(h, rte1.caller, { action: 'acquire' });
  expectRefusedUnchanged(h, rte2.caller, 'NOT_HOLDER', (ctx) => lease(ctx, rte2.caller, { action: 'renew' }));
  expectRefusedUnchanged(h, rte2.caller, 'NOT_HOLDER', (ctx) => lease(ctx, rte2.caller, { action: 'release' }));
  expectRefusedUnchanged(h, rte2.caller, 'NOT_HOLDER', (ctx) => lease(ctx, rte2.caller, { action: 'renew', name: 'build/lock' }));
});

test('an agent without role rte is refused the RTE lease (FORBIDDEN) but keeps its seat on the roster', () => {
  const { h, worker } = rtes();
  expectRefusedUnchanged(h, worker.caller, 'FORBIDDEN', (ctx) => lease(ctx, worker.caller, { action: 'acquire' }));
  expectRefusedUnchanged(h, worker.caller, 'FORBIDDEN', (ctx) => lease(ctx, worker.caller, { action: 'acquire', name: `${RTE_LEASE}/codex` }));
  assert.equal(h.core.state.agents.get(worker.agentId)!.gone, undefined);
  const other = call(h, worker.caller, { action: 'acquire', name: 'build/lock' });
  assert.equal(other.held, true, 'other lease names are open to any agent');
  expectRefusedUnchanged(h, worker.caller, 'FORBIDDEN', (ctx) => lease(ctx, worker.caller, { action: 'acquire', name: 'coordination/rte-lock' }));
});

test('an agent with role operator may hold the RTE lease; the tokenless operator is not an agent', () => {
  const { h } = rtes();
  const op = joinAgent(h, 'DANA', { role: 'operator' });
  assert.equal(call(h, op.caller, { action: 'acquire' }).held, true);
  expectRefusedUnchanged(h, OPERATOR, 'NOT_JOINED', (ctx) => lease(ctx, OPERATOR, { action: 'acquire', name: 'x' }));
});

test(
  'a runtime’s RTE lease (coordination/rte-lock/<runtime>) is refused to an RTE of another runtime',
  () => {
    const { h } = rtes();
    const codexRte = joinAgent(h, 'DELTA', { role: 'rte', runtime: 'codex' });
    expectRefusedUnchanged(h, codexRte.caller, 'FORBIDDEN', (ctx) => lease(ctx, codexRte.caller, { action: 'acquire', name: `${RTE_LEASE}/claude-code` }));
  },
);

test('leases with different names are independent, each with its own fence counter', () => {
  const { h, rte1 } = rtes();
  assert.equal(call(h, rte1.caller, { action: 'acquire' }).fence, 1);
  const codexRte = joinAgent(h, 'DELTA', { role: 'rte', runtime: 'codex' });
  const runtime = call(h, codexRte.caller, { action: 'acquire', name: `${RTE_LEASE}/codex` });
  assert.equal(runtime.held, true);
  assert.equal(runtime.fence, 1);
});

test('an expired lease is released (reason expired) and the next claimant acquires it with a higher fence', () => {
  const { h, rte1, rte2 } = rtes();
  const first = call(h, rte1.caller, { action: 'acquire', ttlSeconds: 30 });
  h.clock.advance(29_999);
  assert.equal(call(h, rte2.caller, { action: 'acquire' }).held, false);
  h.clock.advance(1);
  h.core.sweep();
  const released = eventsOfType(h.events, 'lease.released');
  assert.equal(released.length, 1);
  assert.equal(released[0]!.reason, 'expired');
  const second = call(h, rte2.caller, { action: 'acquire' });
  assert.equal(second.held, true);
  assert.equal(second.holder, 'BOREAS');
  assert.ok(second.fence > first.fence);
  expectRefusedUnchanged(h, rte1.caller, 'STALE_FENCE', (ctx) => lease(ctx, rte1.caller, { action: 'renew', fence: first.fence }));
  expectRefusedUnchanged(h, rte1.caller, 'NOT_HOLDER', (ctx) => lease(ctx, rte1.caller, { action: 'renew' }));
});

test('a stale fence is refused even to the current holder, and changes nothing', () => {
  const { h, rte1 } = rtes();
  const first = call(h, rte1.caller, { action: 'acquire', ttlSeconds: 30 });
  call(h, rte1.caller, { action: 'release' });
  const second = call(h, rte1.caller, { action: 'acquire', ttlSeconds: 30 });
  assert.ok(second.fence > first.fence);
  expectRefusedUnchanged(h, rte1.caller, 'STALE_FENCE', (ctx) => lease(ctx, rte1.caller, { action: 'release', fence: first.fence }));
  assert.equal(call(h, rte1.caller, { action: 'renew', fence: second.fence }).held, true);
});

test('release frees the lease at once for the next claimant', () => {
  const { h, rte1, rte2 } = rtes();
  const first = call(h, rte1.caller, { action: 'acquire' });
  const { result, emitted } = runRecording(h, rte1.caller, (ctx) => lease(ctx, rte1.caller, { action: 'release' }));
  assert.equal(result.held, false);
  assert.equal(result.holder, null);
  assert.deepEqual(eventsOfType(emitted, 'lease.released').map((e) => e.reason), ['released']);
  assert.equal(h.core.state.leases.size, 0);
  const next = call(h, rte2.caller, { action: 'acquire' });
  assert.equal(next.held, true);
  assert.equal(next.fence, first.fence + 1);
});

test('a leaving or expiring agent gives up its leases', () => {
  const { h, rte1, rte2 } = rtes();
  call(h, rte1.caller, { action: 'acquire', ttlSeconds: 3600 });
  h.core.run(rte1.caller, (ctx) => leave(ctx, rte1.caller));
  assert.deepEqual(eventsOfType(h.events, 'lease.released').map((e) => e.reason), ['agent_left']);
  call(h, rte2.caller, { action: 'acquire', ttlSeconds: 3600 });
  h.clock.advance(2 * TTL_MS);
  h.core.sweep();
  assert.deepEqual(eventsOfType(h.events, 'lease.released').map((e) => e.reason), ['agent_left', 'expired']);
  assert.equal(h.core.state.leases.size, 0);
});

test('a live lease outlasts a silent-but-not-expired holder', () => {
  const { h, rte1, rte2 } = rtes();
  call(h, rte1.caller, { action: 'acquire', ttlSeconds: 3600 });
  h.clock.advance(TTL_MS + 1);
  h.core.run(rte2.caller, (ctx) => heartbeat(ctx, rte2.caller, {}));
  assert.equal(call(h, rte2.caller, { action: 'acquire' }).held, false);
});
