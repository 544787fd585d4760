import type { Ctx } from '../../core/context.js';
import type { PersistedState, State } from '../../core/state.js';

/**
 * On a shared log every plane judges every agent's silence, but a call counts as a heartbeat only
 * on the plane it reached (unlogged, DESIGN §3). Each plane therefore logs, in one batch, a
 * heartbeat for every agent it heard from since that agent's last logged one: the other planes
 * see it alive without a write per call. Each names this plane, and when none is due while agents
 * it relayed before live on, a `plane.heartbeat` (at most every half TTL) says the plane itself is there: the other planes
 * then tell an agent's own silence from its plane's (a plane cut off from the store logs nothing).
 */
export function relayLiveness(ctx: Ctx): void {
  const plane = ctx.config.planeId;
  if (plane === undefined) return;
  let relayed = false;
  let hosts = false;
  for (const agent of ctx.state.agents.values()) {
    if (agent.gone) continue;
    if (agent.lastSeen > (agent.heartbeatAt ?? agent.joinedAt)) {
      ctx.emit({ type: 'agent.heartbeat', by: agent.callsign, agentId: agent.agentId, plane });
      relayed = true;
    } else if (agent.plane === plane && ctx.now - (agent.planeHeardAt ?? 0) >= ctx.config.agentTtlMs / 2) {
      hosts = true; // a word every half TTL is enough: a plane counts as silent after a whole one
    }
  }
  if (!relayed && hosts) ctx.emit({ type: 'plane.heartbeat', by: 'plane', plane });
}

/**
 * At shutdown: what this plane heard is logged, then that it stopped — its agents' silence from now
 * on is their own (they expire at their TTL), not a cut-off plane's that may come back.
 */
export function relayStop(ctx: Ctx): void {
  if (ctx.config.planeId === undefined) return;
  relayLiveness(ctx);
  ctx.emit({ type: 'plane.stopped', by: 'plane', plane: ctx.config.planeId });
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
