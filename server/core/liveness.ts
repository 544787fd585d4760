import type { AgentStatus, ClaimExpiry } from '../../contracts/index.js';
import type { CoreConfig } from './context.js';
import type { AgentRecord, ClaimRecord, State } from './state.js';

/** A live agent silent this many TTLs is shown `stalled` when its registered process keeps it live. */
export const STALLED_AFTER_TTLS = 3;

/**
 * Gone agents stay in the state for a day, so the roster (`includeGone`), a re-join with the
 * session token and the digests of that day still find them; then they are pruned so a plane that
 * runs for months does not carry every agent that ever joined. Their history stays in the log.
 */
export const GONE_AGENT_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * An agent whose process the plane registered at join (pid plus its start time, read from /proc)
 * lives as long as that process: the plane watches it and records `agent.process_exited` when it
 * ends. Without a start time the pid is only shown, and the TTL alone decides.
 */
export function hasRegisteredProcess(agent: AgentRecord): agent is AgentRecord & { pid: number; pidStart: string } {
  return agent.pid !== undefined && agent.pidStart !== undefined;
}

/** An agent's own TTL: tier `edge` (cloud agents, CI) gets the longer FLEET_EDGE_TTL (DESIGN §13). */
export function agentTtlOf(agent: Pick<AgentRecord, 'tier'>, config: CoreConfig): number {
  return agent.tier === 'edge' ? (config.edgeTtlMs ?? config.agentTtlMs) : config.agentTtlMs;
}

/**
 * On a shared log, whether an agent's silence is its plane's: the plane that relayed its liveness has
 * logged nothing for a TTL either (cut off from the store, stopped), and the plane-death bound since
 * its last word has not passed. Such an agent is held `stalled` rather than expired (DESIGN §16:
 * claims never lapse because the plane's link stalled); when its plane is heard again, its silence
 * counts as its own again.
 */
export function silentWithItsPlane(agent: AgentRecord, now: number, config: CoreConfig): boolean {
  if (config.planeDeathTtlMs === undefined || agent.plane === undefined || agent.planeHeardAt === undefined) return false;
  return now - agent.planeHeardAt >= agentTtlOf(agent, config) && now < agent.planeHeardAt + config.planeDeathTtlMs;
}

/**
 * The status the roster shows: silence beyond one TTL makes an agent `unknown`; an agent kept
 * live by its process is `stalled` after 3 × TTL of silence, one held for its silent plane once marked.
 */
export function agentStatus(agent: AgentRecord, now: number, config: CoreConfig): AgentStatus {
  if (agent.gone) return agent.gone;
  const silence = now - agent.lastSeen;
  const ttl = agentTtlOf(agent, config);
  if (hasRegisteredProcess(agent) && silence >= STALLED_AFTER_TTLS * ttl) return 'stalled';
  if (agent.markedStalled && silence >= ttl) return 'stalled';
  if (silence >= ttl) return 'unknown';
  return agent.reported;
}

/**
 * After twice the TTL without a heartbeat an agent expires and its claims are released — unless
 * its registered process still runs (then this is only the horizon a heartbeat pushes forward).
 */
export function agentExpiresAt(agent: AgentRecord, config: CoreConfig): number {
  return agent.lastSeen + 2 * agentTtlOf(agent, config);
}

/**
 * When a claim lapses unless renewed or heartbeaten: its own TTL if it has one, otherwise its
 * agent's expiry. For an agent kept live by its registered process this is only the horizon a
 * heartbeat pushes forward (the pinned `expiresAt` of grants, conflicts and check holders);
 * claimLapse says what is true.
 */
export function claimExpiresAt(claim: ClaimRecord, state: State, config: CoreConfig): number {
  if (claim.expiresAt !== undefined) return claim.expiresAt;
  const agent = state.agents.get(claim.agentId);
  return agent ? agentExpiresAt(agent, config) : claim.grantedAt;
}

/**
 * What ends a claim, as the roster, the ledger and the editor show it: its own TTL, its agent's
 * heartbeats (at `expiresAt` without one), or its agent's registered process, whose end releases
 * it and which no silence expires: then there is no time to show (null).
 */
export function claimLapse(claim: ClaimRecord, state: State, config: CoreConfig): { expiresAt: number | null; expiresWith: ClaimExpiry } {
  if (claim.expiresAt !== undefined) return { expiresAt: claim.expiresAt, expiresWith: 'ttl' };
  if (claim.heldFor !== undefined) return { expiresAt: null, expiresWith: 'landing' };
  const agent = state.agents.get(claim.agentId);
  if (agent && !agent.gone && hasRegisteredProcess(agent)) return { expiresAt: null, expiresWith: 'process' };
  return { expiresAt: claimExpiresAt(claim, state, config), expiresWith: 'heartbeats' };
}
