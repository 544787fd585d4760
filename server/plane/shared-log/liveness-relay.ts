import type { Ctx } from '../../core/context.js';
import type { PersistedState, State } from '../../core/state.js';

/**
 * On a shared log every plane judges every agent's silence, but a call counts as a heartbeat only
 * on the plane it reached (unlogged, DESIGN §3). Each plane therefore logs, in one batch, a
 * heartbeat for every agent it heard from since that agent's last logged one: the other planes
 * see it alive without a write per call.
 */
export function relayLiveness(ctx: Ctx): void {
  for (const agent of ctx.state.agents.values()) {
    if (!agent.gone && agent.lastSeen > (agent.heartbeatAt ?? agent.joinedAt)) {
      ctx.emit({ type: 'agent.heartbeat', by: agent.callsign, agentId: agent.agentId });
    }
  }
}

/**
 * A rollback to the shared log's state keeps what this plane heard of each agent (its unlogged
 * lastSeen): the relay logs it once the store answers, so a stalled link to the store is not
 * counted against the agents that kept calling meanwhile.
 */
export function keepHeard(rolledBack: PersistedState, heard: State): PersistedState {
  for (const agent of rolledBack.agents) {
    const here = heard.agents.get(agent.agentId);
    if (here && !here.gone && !agent.gone) agent.lastSeen = Math.max(agent.lastSeen, here.lastSeen);
  }
  return rolledBack;
}
