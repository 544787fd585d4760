import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentStatus } from '../../../server/core/liveness.js';
import { checkPaths } from '../../../server/core/path-check.js';
import { heartbeat, join, leave } from '../../../server/core/roster.js';
import { agentView } from '../../../server/core/views.js';
import {
  OPERATOR,
  SCOPE,
  TTL_MS,
  claimNow,
  eventsOfType,
  expectFleetError,
  expectRefusedUnchanged,
  joinAgent,
  makeHarness,
  runRecording,
  type Harness,
} from '../../support/core-harness.js';

const status = (h: Harness, agentId: string) => agentStatus(h.core.state.agents.get(agentId)!, h.clock.now(), h.config);

test('join returns an agentId, the callsign and a sessionToken, and records agent.joined with defaults', () => {
  const h = makeHarness();
  const { result, emitted } = runRecording(h, undefined, (ctx) => join(ctx, { callsign: 'ATLAS', runtime: 'codex', pid: 4242 }));
  assert.equal(result.callsign, 'ATLAS');
  assert.equal(result.rejoined, false);
  assert.ok(result.agentId.length > 0);
  assert.ok(result.sessionToken.length > 0);
  assert.equal(emitted.length, 1);
  const joined = eventsOfType(emitted, 'agent.joined')[0]!;
  assert.equal(joined.agentId, result.agentId);
  assert.equal(joined.role, 'worker');
  assert.equal(joined.tier, 'local');
  assert.equal(joined.pid, 4242);
  assert.notEqual(joined.tokenHash, result.sessionToken, 'the log must not hold the session token itself');
  assert.equal(h.core.indexes.liveCallsigns.get('ATLAS'), result.agentId);
  assert.equal(status(h, result.agentId), 'active');
});

test('a live callsign is refused to a caller without its token (CALLSIGN_TAKEN), and nothing changes', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  expectRefusedUnchanged(h, OPERATOR, 'CALLSIGN_TAKEN', (ctx) => join(ctx, { callsign: 'ATLAS', runtime: 'codex' }));
  assert.equal(h.core.indexes.liveCallsigns.get('ATLAS'), atlas.agentId);
  assert.equal(h.core.state.agents.size, 1);
});

test('a callsign that is unknown (silent) but not expired is still live and still refused without its token', () => {
  const h = makeHarness();
  joinAgent(h, 'ATLAS');
  h.clock.advance(TTL_MS + 1_000);
  h.core.sweep();
  expectFleetError(() => h.core.run(undefined, (ctx) => join(ctx, { callsign: 'ATLAS', runtime: 'codex' })), 'CALLSIGN_TAKEN');
});

test('re-joining with the sessionToken re-attaches the same agent with its claims, with no gap', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS', { pid: 100 });
  const granted = claimNow(h, atlas.caller, { patterns: ['src/**'] });
  assert.equal(granted.granted, true);
  h.clock.advance(30_000);
  const { result, emitted } = runRecording(h, undefined, (ctx) =>
    join(ctx, { callsign: 'ATLAS', runtime: 'claude-code', sessionToken: atlas.sessionToken, pid: 200 }),
  );
  assert.equal(result.agentId, atlas.agentId);
  assert.equal(result.rejoined, true);
  assert.equal(result.sessionToken, atlas.sessionToken);
  assert.deepEqual(emitted.map((e) => e.type), ['agent.rejoined'], 'a re-attach releases nothing');
  assert.ok(h.core.state.claims.has(granted.claims[0]!.id));
  assert.equal(h.core.state.agents.get(atlas.agentId)!.pid, 200);
  assert.equal(h.core.state.agents.size, 1);
});

test('re-joining with a wrong token is SESSION_INVALID and changes nothing', () => {
  const h = makeHarness();
  joinAgent(h, 'ATLAS');
  expectRefusedUnchanged(h, OPERATOR, 'SESSION_INVALID', (ctx) => join(ctx, { callsign: 'ATLAS', runtime: 'x', sessionToken: 'not-the-token' }));
});

test('one agent’s token does not open another callsign', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  joinAgent(h, 'BOREAS');
  expectFleetError(() => h.core.run(undefined, (ctx) => join(ctx, { callsign: 'BOREAS', runtime: 'x', sessionToken: atlas.sessionToken })), 'SESSION_INVALID');
});

test('after one TTL of silence the agent is unknown and an agent.unknown event is recorded; its claims are kept', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const { claims } = claimNow(h, atlas.caller, { patterns: ['src/**'] });
  h.clock.advance(TTL_MS - 1);
  h.core.sweep();
  assert.equal(status(h, atlas.agentId), 'active');
  assert.equal(eventsOfType(h.events, 'agent.unknown').length, 0);
  h.clock.advance(2);
  h.core.sweep();
  assert.equal(status(h, atlas.agentId), 'unknown');
  assert.equal(agentView(h.core.state.agents.get(atlas.agentId)!, h.core.indexes, h.clock.now(), h.config).status, 'unknown');
  const unknown = eventsOfType(h.events, 'agent.unknown');
  assert.equal(unknown.length, 1);
  assert.equal(unknown[0]!.agentId, atlas.agentId);
  assert.ok(h.core.state.claims.has(claims[0]!.id), 'an unknown agent still holds its claims');
  h.clock.advance(1_000);
  h.core.sweep();
  assert.equal(eventsOfType(h.events, 'agent.unknown').length, 1, 'agent.unknown is recorded once per silence');
});

test(
  'at exactly one TTL of silence the roster status agrees with the recorded agent.unknown event',
  () => {
    const h = makeHarness();
    const atlas = joinAgent(h, 'ATLAS');
    h.clock.advance(TTL_MS);
    h.core.sweep();
    const marked = eventsOfType(h.events, 'agent.unknown').length === 1;
    assert.equal(status(h, atlas.agentId) === 'unknown', marked);
  },
);

test('after 2×TTL the agent expires: its claims are released with reason expired, the event says so, its callsign is free', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const { claims } = claimNow(h, atlas.caller, { patterns: ['src/**', 'docs/**'] });
  h.clock.advance(2 * TTL_MS - 1);
  h.core.sweep();
  assert.equal(h.core.state.claims.size, 2, 'not yet expired one millisecond before 2×TTL');
  h.clock.advance(1);
  h.core.sweep();
  assert.equal(status(h, atlas.agentId), 'expired');
  assert.equal(h.core.state.claims.size, 0);
  const released = eventsOfType(h.events, 'claim.released');
  assert.deepEqual(released.map((e) => e.claimId).sort(), claims.map((c) => c.id).sort());
  for (const event of released) {
    assert.equal(event.reason, 'expired');
    assert.equal(event.by, 'plane');
  }
  const expired = eventsOfType(h.events, 'agent.expired');
  assert.equal(expired.length, 1);
  assert.equal(expired[0]!.agentId, atlas.agentId);
  assert.ok(released.every((e) => e.seq < expired[0]!.seq), 'claims are released before the agent is recorded expired');
  assert.equal(h.core.indexes.liveCallsigns.has('ATLAS'), false);
  const again = joinAgent(h, 'ATLAS');
  assert.notEqual(again.agentId, atlas.agentId, 'a fresh join without token is a new agent');
});

test('an expired agent’s calls are refused (NOT_JOINED) until it joins again', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  h.clock.advance(2 * TTL_MS);
  expectFleetError(() => h.core.run(atlas.caller, (ctx) => heartbeat(ctx, atlas.caller, {})), 'NOT_JOINED');
  const back = h.core.run(undefined, (ctx) => join(ctx, { callsign: 'ATLAS', runtime: 'x', sessionToken: atlas.sessionToken }));
  assert.equal(back.agentId, atlas.agentId, 'its token revives the same identity');
  assert.equal(status(h, atlas.agentId), 'active');
  h.core.run(atlas.caller, (ctx) => heartbeat(ctx, atlas.caller, {}));
});

test('any call an agent makes counts as a heartbeat (a check every 0.9 TTL keeps it alive indefinitely)', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const { claims } = claimNow(h, atlas.caller, { patterns: ['src/**'] });
  for (let i = 0; i < 10; i++) {
    h.clock.advance(TTL_MS * 0.9);
    h.core.run(atlas.caller, (ctx) => checkPaths(ctx, atlas.caller, SCOPE, ['src/a.ts']));
    assert.equal(status(h, atlas.agentId), 'active');
  }
  assert.equal(eventsOfType(h.events, 'agent.unknown').length, 0);
  assert.equal(eventsOfType(h.events, 'agent.expired').length, 0);
  assert.ok(h.core.state.claims.has(claims[0]!.id));
});

test('a call from an unknown agent brings it back to active and records that it came back', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  h.clock.advance(TTL_MS + 5_000);
  h.core.sweep();
  assert.equal(status(h, atlas.agentId), 'unknown');
  const { emitted } = runRecording(h, atlas.caller, (ctx) => checkPaths(ctx, atlas.caller, SCOPE, ['a']));
  assert.deepEqual(emitted.map((e) => e.type), ['agent.heartbeat']);
  assert.equal(status(h, atlas.agentId), 'active');
  h.clock.advance(2 * TTL_MS - 1);
  h.core.sweep();
  assert.notEqual(status(h, atlas.agentId), 'expired', 'the expiry clock restarted at the call');
});

test('heartbeat records status, note and task', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const { emitted } = runRecording(h, atlas.caller, (ctx) => heartbeat(ctx, atlas.caller, { status: 'blocked', note: 'waiting on CI', task: 'W-7' }));
  assert.equal(emitted.length, 1);
  const agent = h.core.state.agents.get(atlas.agentId)!;
  assert.equal(agent.reported, 'blocked');
  assert.equal(agent.note, 'waiting on CI');
  assert.equal(agent.task, 'W-7');
  assert.equal(status(h, atlas.agentId), 'blocked');
});

test('the operator (not an agent) cannot heartbeat or leave: NOT_JOINED', () => {
  const h = makeHarness();
  expectRefusedUnchanged(h, OPERATOR, 'NOT_JOINED', (ctx) => heartbeat(ctx, OPERATOR, {}));
  expectRefusedUnchanged(h, OPERATOR, 'NOT_JOINED', (ctx) => leave(ctx, OPERATOR));
});

test('leave releases every claim with reason agent_left, then records agent.left and frees the callsign', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const boreas = joinAgent(h, 'BOREAS');
  const mine = claimNow(h, atlas.caller, { patterns: ['src/**', 'lib/**'] });
  const theirs = claimNow(h, boreas.caller, { patterns: ['docs/**'] });
  const { result, emitted } = runRecording(h, atlas.caller, (ctx) => leave(ctx, atlas.caller));
  assert.deepEqual([...result].sort(), mine.claims.map((c) => c.id).sort());
  const released = eventsOfType(emitted, 'claim.released');
  assert.equal(released.length, 2);
  assert.ok(released.every((e) => e.reason === 'agent_left'));
  assert.equal(emitted.at(-1)!.type, 'agent.left');
  assert.equal(status(h, atlas.agentId), 'left');
  assert.ok(h.core.state.claims.has(theirs.claims[0]!.id), 'another agent’s claims are untouched');
  assert.equal(h.core.indexes.liveCallsigns.has('ATLAS'), false);
  expectFleetError(() => h.core.run(atlas.caller, (ctx) => leave(ctx, atlas.caller)), 'NOT_JOINED');
  joinAgent(h, 'ATLAS');
});

test('the expiry deadline follows the latest call, not the join', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  h.clock.advance(TTL_MS / 2);
  h.core.run(atlas.caller, (ctx) => heartbeat(ctx, atlas.caller, {}));
  h.clock.advance(2 * TTL_MS - 1);
  h.core.sweep();
  assert.equal(status(h, atlas.agentId), 'unknown');
  h.clock.advance(1);
  h.core.sweep();
  assert.equal(status(h, atlas.agentId), 'expired');
});
