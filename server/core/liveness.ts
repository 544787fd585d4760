import type { AgentStatus } from '../../contracts/index.js';
import type { CoreConfig } from './context.js';
import type { AgentRecord, ClaimRecord, State } from './state.js';

/** The status the roster shows: silence beyond one TTL makes an agent `unknown`. */
export function agentStatus(agent: AgentRecord, now: number, config: CoreConfig): AgentStatus {
  if (agent.gone) return agent.gone;
  if (now - agent.lastSeen >= config.agentTtlMs) return 'unknown';
  return agent.reported;
}

/** After twice the TTL without a heartbeat an agent expires and its claims are released. */
export function agentExpiresAt(agent: AgentRecord, config: CoreConfig): number {
  return agent.lastSeen + 2 * config.agentTtlMs;
}

/** When a claim lapses: its own TTL if it has one, otherwise its agent's expiry. */
export function claimExpiresAt(claim: ClaimRecord, state: State, config: CoreConfig): number {
  if (claim.expiresAt !== undefined) return claim.expiresAt;
  const agent = state.agents.get(claim.agentId);
  return agent ? agentExpiresAt(agent, config) : claim.grantedAt;
}
