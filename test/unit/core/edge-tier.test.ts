// DESIGN §13: agents of tier edge (cloud agents, CI across a WAN) live on FLEET_EDGE_TTL and pull
// coarser work: items marked for their tier, or stories and above.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentStatus } from '../../../server/core/liveness.js';
import { claimNow, eventsOfType, joinAgent, makeHarness, TTL_MS, type Harness, type JoinedAgent } from '../../support/core-harness.js';
import { add, pull } from '../../support/orchestration-harness.js';

const EDGE_TTL_MS = 5 * TTL_MS;

const status = (h: Harness, agent: JoinedAgent) => agentStatus(h.core.state.agents.get(agent.agentId)!, h.clock.now(), h.config);
const pulled = (h: Harness, agent: JoinedAgent) => pull(h, agent).item?.title ?? null;

test('an edge agent lives on the edge TTL: unknown after one, expired with its claims after two; a local agent keeps the agent TTL', () => {
  const h = makeHarness({ edgeTtlMs: EDGE_TTL_MS });
  const local = joinAgent(h, 'LOCAL');
  const edge = joinAgent(h, 'CLOUD', { tier: 'edge' });
  claimNow(h, edge.caller, { patterns: ['src/**'] });
  h.clock.advance(2 * TTL_MS);
  h.core.sweep();
  assert.equal(h.core.state.agents.get(local.agentId)!.gone, 'expired');
  assert.equal(status(h, edge), 'active', 'two agent TTLs are nothing to an edge agent');
  h.clock.advance(EDGE_TTL_MS - 2 * TTL_MS);
  h.core.sweep();
  assert.equal(status(h, edge), 'unknown');
  assert.equal(h.core.state.claims.size, 1);
  h.clock.advance(EDGE_TTL_MS);
  h.core.sweep();
  assert.equal(h.core.state.agents.get(edge.agentId)!.gone, 'expired');
  assert.equal(h.core.state.claims.size, 0);
  assert.deepEqual(eventsOfType(h.events, 'agent.expired').map((e) => e.agentId), [local.agentId, edge.agentId]);
});

test('edge pulls coarser work: items marked edge, or unmarked stories and above; never unmarked tasks or items marked local', () => {
  const h = makeHarness({ edgeTtlMs: EDGE_TTL_MS });
  const edge = joinAgent(h, 'CLOUD', { tier: 'edge' });
  const local = joinAgent(h, 'LOCAL');
  add(h, { title: 'small task' });
  add(h, { title: 'local task', tier: 'local' });
  add(h, { title: 'a story', kind: 'story' });
  add(h, { title: 'edge task', tier: 'edge' });
  assert.equal(pulled(h, edge), 'a story');
  assert.equal(pulled(h, edge), 'edge task');
  assert.equal(pulled(h, edge), null);
  assert.equal(pulled(h, local), 'small task');
  assert.equal(pulled(h, local), 'local task');
  assert.equal(pulled(h, local), null);
});
