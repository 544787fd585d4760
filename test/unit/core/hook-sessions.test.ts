// Runtime sessions bound to agents (DESIGN §11: the hook's session_id names its writer).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentOfHookSession, bindHookSession, MAX_HOOK_SESSIONS_PER_AGENT, unbindHookSession } from '../../../server/core/hook-sessions.js';
import { leave } from '../../../server/core/roster.js';
import { FakeClock, eventsOfType, joinAgent, makeHarness, restoreHarness, type Harness, type JoinedAgent } from '../../support/core-harness.js';

const bind = (h: Harness, agent: JoinedAgent, sessionId: string) => h.core.run(agent.caller, (ctx) => bindHookSession(ctx, ctx.state.agents.get(agent.agentId)!, sessionId));
const owner = (h: Harness, sessionId: string) => agentOfHookSession(h.core.state, sessionId)?.callsign;

test('a session speaks for one agent: binding it to another takes it over; binding again records nothing', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const bolt = joinAgent(h, 'BOLT');
  assert.equal(bind(h, atlas, 's-1'), true);
  assert.equal(bind(h, atlas, 's-1'), false, 'already bound: no event');
  assert.equal(owner(h, 's-1'), 'ATLAS');
  bind(h, bolt, 's-1');
  assert.equal(owner(h, 's-1'), 'BOLT');
  assert.deepEqual(h.core.state.agents.get(atlas.agentId)!.hookSessions, []);
  assert.equal(eventsOfType(h.events, 'agent.session_bound').length, 2);
});

test('an agent keeps its newest sessions only, and unbinding ends exactly one', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  for (let i = 0; i < MAX_HOOK_SESSIONS_PER_AGENT + 3; i++) bind(h, atlas, `s-${i}`);
  const kept = h.core.state.agents.get(atlas.agentId)!.hookSessions!;
  assert.equal(kept.length, MAX_HOOK_SESSIONS_PER_AGENT);
  assert.equal(owner(h, 's-0'), undefined, 'the oldest went');
  assert.equal(owner(h, `s-${MAX_HOOK_SESSIONS_PER_AGENT + 2}`), 'ATLAS');
  assert.equal(h.core.run(atlas.caller, (ctx) => unbindHookSession(ctx, ctx.state.agents.get(atlas.agentId)!, 's-5')), true);
  assert.equal(owner(h, 's-5'), undefined);
  assert.equal(h.core.run(atlas.caller, (ctx) => unbindHookSession(ctx, ctx.state.agents.get(atlas.agentId)!, 's-5')), false, 'not bound: no event');
});

test('bindings are replayed from the log, and an agent that goes takes its sessions with it', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  bind(h, atlas, 's-1');
  const replayed = restoreHarness({ snapshot: null, tail: h.events }, {}, new FakeClock(h.clock.now()));
  assert.equal(owner(replayed, 's-1'), 'ATLAS');
  h.core.run(atlas.caller, (ctx) => leave(ctx, atlas.caller));
  assert.equal(owner(h, 's-1'), undefined);
  assert.equal(h.core.state.agents.get(atlas.agentId)!.hookSessions, undefined);
});
