import type { FleetEvent } from '../../contracts/index.js';
import type { Indexes } from './indexes.js';
import { applyPersonWaitEvent } from './person-waits.js';
import { applyHookSessionEvent } from './hook-sessions.js';
import { applyTrainEvent } from './integration-reducer.js';
import { applyOrchestrationEvent } from './orchestration-reducer.js';
import { applyScopesMigrated } from './scope-merge.js';
import { applyViolationEvent } from './violations.js';
import { applyForecastEvent } from './integration-forecast.js';
import { applyAgentBack, applyAgentGone, applyItemNoLongerHeld } from './write-set-awaiting-landing.js';
import { MAX_REMEMBERED_REQUESTS, requestKey, type AgentRecord, type State } from './state.js';

export interface ReducerConfig {
  agentTtlMs: number;
}

/**
 * The only code that changes `State`. Handlers decide and emit events; this applies them, both
 * live and when replaying the log after a restart, so the two can never disagree.
 */
export function applyEvent(state: State, indexes: Indexes, event: FleetEvent, config: ReducerConfig): void {
  state.seq = event.seq;
  switch (event.type) {
    case 'plane.started': {
      // After a restart every live agent and lease gets at least one TTL before it can lapse:
      // the plane was down, not the agents.
      const grace = event.at + config.agentTtlMs;
      for (const agent of state.agents.values()) {
        if (!agent.gone) {
          agent.lastSeen = Math.max(agent.lastSeen, event.at);
          agent.markedUnknown = false;
          agent.markedStalled = false;
        }
      }
      for (const claim of state.claims.values()) {
        if (claim.expiresAt !== undefined) claim.expiresAt = Math.max(claim.expiresAt, grace);
      }
      for (const lease of state.leases.values()) lease.expiresAt = Math.max(lease.expiresAt, grace);
      return;
    }
    case 'agent.joined':
      state.agents.set(event.agentId, {
        agentId: event.agentId,
        callsign: event.callsign,
        runtime: event.runtime,
        role: event.role,
        tier: event.tier,
        worktree: event.worktree,
        pid: event.pid,
        pidStart: event.pidStart,
        tokenHash: event.tokenHash,
        joinedAt: event.at,
        lastSeen: event.at,
        heartbeatAt: event.at,
        reported: 'active',
        ...(event.plane !== undefined && { plane: event.plane, planeHeardAt: event.at }),
      });
      indexes.liveCallsigns.set(event.callsign, event.agentId);
      return;
    case 'agent.rejoined': {
      const agent = state.agents.get(event.agentId);
      if (!agent) return;
      // The process a gone agent had registered is history: one coming back without a pid is
      // TTL-bound, not ended again at once because that old process is gone.
      if (agent.gone && event.pid === undefined) {
        agent.pid = undefined;
        agent.pidStart = undefined;
      }
      agent.gone = undefined;
      agent.goneAt = undefined;
      agent.markedUnknown = false;
      agent.markedStalled = false;
      agent.hooksSeen = undefined;
      agent.waiting = undefined;
      agent.lastSeen = event.at;
      agent.heartbeatAt = event.at;
      if (event.worktree !== undefined) agent.worktree = event.worktree;
      if (event.pid !== undefined) {
        agent.pid = event.pid;
        agent.pidStart = event.pidStart;
      }
      if (event.plane !== undefined) planeHeard(state, event.plane, event.at, agent);
      indexes.liveCallsigns.set(agent.callsign, agent.agentId);
      applyAgentBack(state, agent.agentId);
      return;
    }
    case 'agent.heartbeat': {
      const agent = state.agents.get(event.agentId);
      if (!agent) return;
      agent.lastSeen = Math.max(agent.lastSeen, event.at);
      agent.heartbeatAt = event.at;
      agent.markedUnknown = false;
      agent.markedStalled = false;
      if (event.plane !== undefined) planeHeard(state, event.plane, event.at, agent);
      if (event.status !== undefined) agent.reported = event.status;
      if (event.note !== undefined) agent.note = event.note;
      if (event.task !== undefined) agent.task = event.task;
      return;
    }
    case 'agent.unknown': {
      const agent = state.agents.get(event.agentId);
      if (agent) agent.markedUnknown = true;
      return;
    }
    case 'agent.stalled': {
      const agent = state.agents.get(event.agentId);
      if (agent) agent.markedStalled = true;
      return;
    }
    case 'agent.left':
    case 'agent.expired':
    case 'agent.process_exited': {
      const agent = state.agents.get(event.agentId);
      if (!agent) return;
      agent.gone = event.type === 'agent.left' ? 'left' : 'expired';
      agent.goneAt = event.at;
      // A gone agent speaks for no session: the session's next hooks find its writer afresh.
      agent.hookSessions = undefined;
      agent.waiting = undefined;
      applyAgentGone(state, agent.agentId, agent.gone, event.awaitingLanding);
      if (indexes.liveCallsigns.get(agent.callsign) === agent.agentId) indexes.liveCallsigns.delete(agent.callsign);
      return;
    }
    case 'agent.pruned':
      state.agents.delete(event.agentId);
      return;
    case 'plane.stalled':
      creditStall(state, event.from, event.at);
      return;
    case 'plane.heartbeat':
      planeHeard(state, event.plane, event.at);
      return;
    case 'plane.stopped':
      for (const agent of state.agents.values()) {
        if (agent.plane !== event.plane) continue;
        agent.plane = undefined;
        agent.planeHeardAt = undefined;
      }
      return;
    case 'agent.terminated':
      return;
    case 'claim.granted': {
      const claim = {
        id: event.claimId,
        agentId: event.agentId,
        scope: event.scope,
        pattern: event.pattern,
        mode: event.mode,
        fence: event.fence,
        grantedAt: event.at,
        ttlMs: event.ttlMs,
        expiresAt: event.expiresAt,
        reason: event.reason,
        ...(event.heldFor !== undefined && { heldFor: event.heldFor }),
      };
      state.claims.set(claim.id, claim);
      indexes.addClaim(claim);
      state.claimFences.set(event.scope, Math.max(state.claimFences.get(event.scope) ?? 0, event.fence));
      if (event.requestId !== undefined) rememberRequest(state, event.agentId, event.requestId, claim, event.at);
      return;
    }
    case 'scopes.migrated':
      applyScopesMigrated(state, indexes, event);
      return;
    case 'claim.unparked':
      state.parkedClaims.delete(event.claimId);
      return;
    case 'claim.renewed': {
      const claim = state.claims.get(event.claimId);
      if (claim) claim.expiresAt = event.expiresAt;
      return;
    }
    case 'claim.released': {
      const claim = state.claims.get(event.claimId);
      if (!claim) return;
      state.claims.delete(claim.id);
      indexes.removeClaim(claim);
      if (claim.heldFor !== undefined && !indexes.claimsHeldFor.has(claim.heldFor)) applyItemNoLongerHeld(state, claim.heldFor);
      return;
    }
    case 'lease.acquired':
      state.leases.set(event.name, { name: event.name, agentId: event.agentId, fence: event.fence, expiresAt: event.expiresAt });
      state.leaseFences.set(event.name, Math.max(state.leaseFences.get(event.name) ?? 0, event.fence));
      return;
    case 'lease.renewed': {
      const lease = state.leases.get(event.name);
      if (lease) lease.expiresAt = event.expiresAt;
      return;
    }
    case 'lease.released':
      state.leases.delete(event.name);
      return;
    case 'memo.written':
      state.memos.set(event.key, { key: event.key, value: event.value, version: event.version, updatedBy: event.by ?? 'unknown', updatedAt: event.at });
      return;
    case 'control.set':
      state.control = { state: event.state, reason: event.reason, setBy: event.by ?? 'unknown', setAt: event.at };
      return;
    case 'agent.session_bound':
    case 'agent.session_unbound':
      applyHookSessionEvent(state, event);
      return;
    case 'agent.waiting':
    case 'agent.wait_ended':
      applyPersonWaitEvent(state, event);
      return;
    case 'territory.violated':
    case 'territory.violations_acknowledged':
      applyViolationEvent(state, event);
      return;
    case 'integration.write_set':
    case 'integration.forecast':
    case 'integration.reach':
      applyForecastEvent(state, event);
      return;
    case 'integration.configured':
    case 'integration.queued':
    case 'integration.batch':
    case 'integration.batch_ended':
    case 'integration.left':
      applyTrainEvent(state, event);
      return;
    default:
      applyOrchestrationEvent(state, event);
  }
}

/**
 * Nothing could be heard while the plane stood still, so that time is no one's silence: live
 * agents and the TTL claims, leases and pending handoffs that were live when it began get it back.
 * A heartbeat, renewal or accept that waited in a socket during the stall then arrives in time.
 */
/** A plane logged something of its own: its agents' silence since is theirs, not the plane's (`relayed` moves to it). */
function planeHeard(state: State, plane: string, at: number, relayed?: AgentRecord): void {
  if (relayed) relayed.plane = plane;
  for (const agent of state.agents.values()) {
    if (!agent.gone && agent.plane === plane) agent.planeHeardAt = at;
  }
}

function creditStall(state: State, from: number, to: number): void {
  const stall = to - from;
  for (const agent of state.agents.values()) {
    if (!agent.gone) agent.lastSeen = Math.min(to, agent.lastSeen + stall);
  }
  for (const claim of state.claims.values()) {
    if (claim.expiresAt !== undefined && claim.expiresAt > from) claim.expiresAt += stall;
  }
  for (const lease of state.leases.values()) {
    if (lease.expiresAt > from) lease.expiresAt += stall;
  }
  // A recipient's accept may be among the calls that waited in a socket.
  for (const handoff of state.handoffs.values()) {
    if (handoff.status === 'pending' && handoff.expiresAt > from) handoff.expiresAt += stall;
  }
}

function rememberRequest(state: State, agentId: string, requestId: string, claim: { id: string; pattern: string; fence: number }, at: number): void {
  const key = requestKey(agentId, requestId);
  const existing = state.requests.get(key);
  // Once every claim of a request has ended, its id may be granted afresh: that grant replaces the old one.
  if (existing && existing.claims.some((c) => state.claims.has(c.id))) {
    existing.claims.push({ id: claim.id, pattern: claim.pattern, fence: claim.fence });
    return;
  }
  state.requests.set(key, { agentId, claims: [{ id: claim.id, pattern: claim.pattern, fence: claim.fence }], at });
  if (state.requests.size > MAX_REMEMBERED_REQUESTS) {
    const oldest = state.requests.keys().next().value;
    if (oldest !== undefined) state.requests.delete(oldest);
  }
}
