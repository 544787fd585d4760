// Liveness beats TTL (DESIGN §5 invariant 4, §11, §12): registered processes, stalls, pruning.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentStatus, GONE_AGENT_RETENTION_MS } from '../../../server/core/liveness.js';
import { claimView } from '../../../server/core/views.js';
import { ownershipFrom } from '../../../server/language-server/ownership.js';
import { sendHandoff, type HandoffInput } from '../../../server/core/handoffs.js';
import { heartbeat, join, leave, processExited } from '../../../server/core/roster.js';
import { toPersisted } from '../../../server/core/state.js';
import { relayLiveness } from '../../../server/plane/shared-log/liveness-relay.js';
import { FakeClock, TTL_MS, claimNow, eventsOfType, joinAgent, makeHarness, restoreHarness, type Harness } from '../../support/core-harness.js';

const status = (h: Harness, agentId: string) => agentStatus(h.core.state.agents.get(agentId)!, h.clock.now(), h.config);
const registered = { pid: 4242, pidStart: '777' };

/** Time passing on a plane that runs: the sweeper runs every half second. */
function tick(h: Harness, ms: number): void {
  for (let t = 0; t < ms; t += 500) {
    h.clock.advance(500);
    h.core.sweep();
  }
}

test('a silent agent with a registered process is unknown after 1 TTL, stalled after 3, and keeps its claims', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS', registered);
  claimNow(h, atlas.caller, { patterns: ['src/**'] });
  h.clock.advance(TTL_MS);
  h.core.sweep();
  assert.equal(status(h, atlas.agentId), 'unknown');
  h.clock.advance(2 * TTL_MS);
  h.core.sweep();
  assert.equal(status(h, atlas.agentId), 'stalled');
  assert.equal(eventsOfType(h.events, 'agent.stalled').length, 1);
  h.clock.advance(10 * TTL_MS);
  h.core.sweep();
  assert.equal(eventsOfType(h.events, 'agent.expired').length, 0, 'a live process is never expired by silence');
  assert.equal(eventsOfType(h.events, 'agent.stalled').length, 1, 'stalled is recorded once per silence');
  assert.equal(h.core.state.claims.size, 1);
  // A call ends the silence; a new silence is noticed again.
  h.core.run(atlas.caller, (ctx) => heartbeat(ctx, atlas.caller, {}));
  assert.equal(status(h, atlas.agentId), 'active');
  h.clock.advance(TTL_MS);
  h.core.sweep();
  assert.equal(eventsOfType(h.events, 'agent.unknown').length, 2);
});

test('without a start time a pid is not a registration: the TTL alone decides', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS', { pid: 4242 });
  claimNow(h, atlas.caller, { patterns: ['src/**'] });
  h.clock.advance(2 * TTL_MS);
  h.core.sweep();
  assert.equal(status(h, atlas.agentId), 'expired');
  assert.equal(eventsOfType(h.events, 'claim.released')[0]!.reason, 'expired');
});

test('a process that exited releases the non-escrowed claims with reason process_exited; escrowed ones follow the handoff', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS', registered);
  joinAgent(h, 'BOREAS');
  const kept = claimNow(h, atlas.caller, { patterns: ['src/**'] });
  const travelling = claimNow(h, atlas.caller, { patterns: ['docs/**'] });
  const input = { to: { callsign: 'BOREAS' }, summary: 'docs are yours', claims: [travelling.claims[0]!.id], filesTouched: [], nextSteps: [], openQuestions: [], artifacts: [], refs: [] } as HandoffInput;
  h.core.run(atlas.caller, (ctx) => sendHandoff(ctx, atlas.caller, input));
  h.core.run(undefined, (ctx) => processExited(ctx, atlas.agentId, registered.pid, registered.pidStart));
  const released = eventsOfType(h.events, 'claim.released');
  assert.deepEqual(
    released.map((e) => [e.claimId, e.reason]),
    [[kept.claims[0]!.id, 'process_exited']],
  );
  assert.equal(eventsOfType(h.events, 'agent.process_exited')[0]!.pid, registered.pid);
  assert.equal(status(h, atlas.agentId), 'expired');
  assert.ok(h.core.state.claims.has(travelling.claims[0]!.id), 'the escrowed claim waits for the handoff');
});

test('a process exit seen for an older process is ignored once the agent re-joined with another', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS', registered);
  claimNow(h, atlas.caller, { patterns: ['src/**'] });
  h.core.run(undefined, (ctx) => processExited(ctx, atlas.agentId, registered.pid, 'an earlier process'));
  assert.equal(eventsOfType(h.events, 'agent.process_exited').length, 0);
  assert.equal(h.core.state.claims.size, 1);
});

test('a stall longer than the threshold is no one’s silence: an agent live before it is not expired after it', () => {
  const h = makeHarness({ stallThresholdMs: 1_000 });
  const atlas = joinAgent(h, 'ATLAS');
  const ttlClaim = claimNow(h, atlas.caller, { patterns: ['lib/**'], ttlSeconds: TTL_MS / 1000 });
  claimNow(h, atlas.caller, { patterns: ['src/**'] });
  tick(h, TTL_MS / 2);
  h.clock.advance(3 * TTL_MS); // the plane stood still (SIGSTOP, GC): no run in between
  // The first thing to run after the thaw is the agent's own queued heartbeat.
  h.core.run(atlas.caller, (ctx) => heartbeat(ctx, atlas.caller, {}));
  const stalled = eventsOfType(h.events, 'plane.stalled');
  assert.equal(stalled.length, 1);
  assert.equal(stalled[0]!.at - stalled[0]!.from, 3 * TTL_MS);
  assert.equal(eventsOfType(h.events, 'agent.expired').length, 0);
  assert.equal(eventsOfType(h.events, 'claim.released').length, 0, `the TTL claim ${ttlClaim.claims[0]!.id} got the stall back too`);
  assert.equal(status(h, atlas.agentId), 'active');
});

test('a stall is no handoff\'s waiting time: a handoff pending before it is still pending after it, and expires on time later', () => {
  const h = makeHarness({ stallThresholdMs: 1_000 });
  const atlas = joinAgent(h, 'ATLAS');
  const boreas = joinAgent(h, 'BOREAS');
  const held = claimNow(h, atlas.caller, { patterns: ['docs/**'] });
  const input = { to: { callsign: 'BOREAS' }, summary: 'docs are yours', claims: [held.claims[0]!.id], filesTouched: [], nextSteps: [], openQuestions: [], artifacts: [], refs: [], ttlSeconds: 10 } as HandoffInput;
  const handoff = h.core.run(atlas.caller, (ctx) => sendHandoff(ctx, atlas.caller, input));
  tick(h, 5_000);
  h.clock.advance(60_000); // the plane stood still well past the handoff's deadline
  // The first thing to run after the thaw is the recipient's queued heartbeat; the sweep follows.
  h.core.run(boreas.caller, (ctx) => heartbeat(ctx, boreas.caller, {}));
  h.core.sweep();
  assert.equal(eventsOfType(h.events, 'plane.stalled').length, 1);
  assert.equal(h.core.state.handoffs.get(handoff.id)!.status, 'pending', 'the stall is not the recipient\'s delay');
  tick(h, 5_000);
  assert.equal(h.core.state.handoffs.get(handoff.id)!.status, 'expired', 'the rest of its 10 s still runs out');
});

test('without stall detection (or after a real silence outside any stall) the TTL still expires agents', () => {
  const h = makeHarness({ stallThresholdMs: 1_000 });
  const atlas = joinAgent(h, 'ATLAS');
  tick(h, 2 * TTL_MS);
  assert.equal(eventsOfType(h.events, 'plane.stalled').length, 0);
  assert.equal(status(h, atlas.agentId), 'expired');
});

test('gone agents are pruned after the retention window by an event, and a replay agrees', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const boreas = joinAgent(h, 'BOREAS');
  h.core.run(atlas.caller, (ctx) => leave(ctx, atlas.caller));
  h.clock.advance(GONE_AGENT_RETENTION_MS - 1);
  h.core.sweep();
  assert.ok(h.core.state.agents.has(atlas.agentId), 'kept within the window');
  h.clock.advance(1);
  h.core.sweep();
  assert.deepEqual(eventsOfType(h.events, 'agent.pruned').map((e) => e.agentId), [atlas.agentId]);
  assert.equal(status(h, boreas.agentId), 'expired', 'BOREAS expired in the meantime: its window starts then');
  h.clock.advance(GONE_AGENT_RETENTION_MS);
  h.core.sweep();
  assert.equal(h.core.state.agents.size, 0);
  const replayed = restoreHarness({ snapshot: null, tail: h.events }, {}, new FakeClock(h.clock.now()));
  assert.equal(replayed.core.state.agents.size, 0);
});

test('a gone agent restored from a snapshot is pruned on time after the restart', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  h.core.run(atlas.caller, (ctx) => leave(ctx, atlas.caller));
  const snapshot = JSON.parse(JSON.stringify(toPersisted(h.core.state))) as ReturnType<typeof toPersisted>;
  const restarted = restoreHarness({ snapshot, tail: [] }, {}, new FakeClock(h.clock.now() + GONE_AGENT_RETENTION_MS));
  restarted.core.sweep();
  assert.equal(eventsOfType(restarted.events, 'agent.pruned')[0]!.agentId, atlas.agentId);
  assert.equal(restarted.core.state.agents.size, 0);
});

test('re-joining without a pid keeps a live agent’s process; a gone agent comes back TTL-bound', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS', registered);
  const rejoin = () => h.core.run(undefined, (ctx) => join(ctx, { callsign: 'ATLAS', runtime: 'test', sessionToken: atlas.sessionToken }));
  rejoin(); // a bridge reconnecting after a plane restart
  assert.equal(h.core.state.agents.get(atlas.agentId)!.pidStart, registered.pidStart);
  h.core.run(undefined, (ctx) => processExited(ctx, atlas.agentId, registered.pid, registered.pidStart));
  rejoin(); // a CLI call with the token, after the runtime ended
  const agent = h.core.state.agents.get(atlas.agentId)!;
  assert.equal(agent.gone, undefined);
  assert.equal(agent.pid, undefined, 'the ended process is not watched again (it would end the agent at once)');
  h.clock.advance(2 * TTL_MS);
  h.core.sweep();
  assert.equal(status(h, atlas.agentId), 'expired');
});

test('a claim kept by a registered process shows no expiry (not a time long past), in the roster and in the editor; TTL and heartbeat claims show theirs', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS', registered);
  const boreas = joinAgent(h, 'BOREAS');
  const kept = claimNow(h, atlas.caller, { patterns: ['src/**'] }).claims[0]!;
  const timed = claimNow(h, atlas.caller, { patterns: ['lib/**'], ttlSeconds: 3600 }).claims[0]!;
  const beating = claimNow(h, boreas.caller, { patterns: ['docs/**'] }).claims[0]!;
  const view = (id: string) => claimView(h.core.state.claims.get(id)!, h.core.state, h.config);
  assert.deepEqual([view(beating.id).expiresAt, view(beating.id).expiresWith], [new Date(h.clock.now() + 2 * TTL_MS).toISOString(), 'heartbeats']);
  tick(h, 5 * TTL_MS); // ATLAS is silent but its process runs: stalled, still live
  assert.equal(status(h, atlas.agentId), 'stalled');
  assert.deepEqual([view(kept.id).expiresAt, view(kept.id).expiresWith], [null, 'process']);
  assert.deepEqual([view(timed.id).expiresAt, view(timed.id).expiresWith], [timed.expiresAt, 'ttl']);
  assert.match(ownershipFrom([view(kept.id)], 'src/a.ts', undefined)!.summary, /held while ATLAS's process runs/);
});

test('on a shared log, an agent silent with its plane is held stalled with its claims until the plane-death bound; one silent while its plane speaks expires at 2 × TTL', () => {
  const shared = { planeId: 'pl-a', planeDeathTtlMs: 10 * TTL_MS };
  const h = makeHarness(shared);
  const atlas = joinAgent(h, 'ATLAS');
  claimNow(h, atlas.caller, { patterns: ['src/**'] });
  // Plane pl-a logs nothing (cut off from the store): ATLAS's silence is its plane's.
  tick(h, 3 * TTL_MS);
  assert.deepEqual([status(h, atlas.agentId), h.core.state.claims.size, eventsOfType(h.events, 'agent.stalled').length], ['stalled', 1, 1]);
  tick(h, 6 * TTL_MS);
  assert.equal(status(h, atlas.agentId), 'stalled', 'short of the plane-death bound');
  tick(h, TTL_MS + 500);
  assert.deepEqual([status(h, atlas.agentId), h.core.state.claims.size], ['expired', 0], 'past it the plane counts as dead');

  // The plane relays (it is there) while its agent says nothing: the silence is the agent's own.
  const g = makeHarness(shared);
  const bolt = joinAgent(g, 'BOLT');
  claimNow(g, bolt.caller, { patterns: ['src/**'] });
  for (let t = 0; t < 2 * TTL_MS + 500; t += 500) {
    g.clock.advance(500);
    g.core.run(undefined, relayLiveness);
    g.core.sweep();
  }
  assert.deepEqual([status(g, bolt.agentId), g.core.state.claims.size], ['expired', 0]);
  assert.ok(eventsOfType(g.events, 'plane.heartbeat').length > 0, 'the plane said it was there');
});
