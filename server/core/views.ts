import type { Agent, Claim, ControlBrief, Memo, ParkedClaim } from '../../contracts/index.js';
import type { CoreConfig } from './context.js';
import type { Indexes } from './indexes.js';
import { agentStatus, claimLapse } from './liveness.js';
import type { AgentRecord, ClaimRecord, ControlRecord, MemoRecord, ParkedClaimRecord, State } from './state.js';

/** Turns internal records (epoch ms) into the public shapes of contracts/ (ISO times). */
export const iso = (ms: number): string => new Date(ms).toISOString();

export function agentView(agent: AgentRecord, indexes: Indexes, now: number, config: CoreConfig): Agent {
  return {
    agentId: agent.agentId,
    callsign: agent.callsign,
    runtime: agent.runtime,
    role: agent.role,
    tier: agent.tier,
    status: agentStatus(agent, now, config),
    ...(agent.worktree !== undefined && { worktree: agent.worktree }),
    ...(agent.pid !== undefined && { pid: agent.pid }),
    ...(agent.note !== undefined && { note: agent.note }),
    ...(agent.task !== undefined && { task: agent.task }),
    joinedAt: iso(agent.joinedAt),
    lastSeenAt: iso(agent.lastSeen),
    claimCount: indexes.claimsByAgent.get(agent.agentId)?.size ?? 0,
    ...(agent.hooksSeen !== undefined && { hooksSeen: { hook: agent.hooksSeen.hook, at: iso(agent.hooksSeen.at) } }),
    ...(agent.waiting !== undefined && { waitingForPerson: { ...agent.waiting, since: iso(agent.waiting.since) } }),
  };
}

export function callsignOf(state: State, agentId: string): string {
  return state.agents.get(agentId)?.callsign ?? agentId;
}

export function claimView(claim: ClaimRecord, state: State, config: CoreConfig): Claim {
  const { expiresAt, expiresWith } = claimLapse(claim, state, config);
  return {
    id: claim.id,
    scope: claim.scope,
    pattern: claim.pattern,
    mode: claim.mode,
    holder: callsignOf(state, claim.agentId),
    agentId: claim.agentId,
    fence: claim.fence,
    grantedAt: iso(claim.grantedAt),
    expiresAt: expiresAt === null ? null : iso(expiresAt),
    expiresWith,
    ...(claim.ttlMs !== undefined && { ttlSeconds: claim.ttlMs / 1000 }),
    ...(claim.reason !== undefined && { reason: claim.reason }),
    ...(claim.heldFor !== undefined && { heldFor: claim.heldFor }),
  };
}

export function parkedClaimView(parked: ParkedClaimRecord, state: State): ParkedClaim {
  return {
    id: parked.id,
    scope: parked.scope,
    pattern: parked.pattern,
    mode: parked.mode,
    holder: callsignOf(state, parked.agentId),
    agentId: parked.agentId,
    grantedAt: iso(parked.grantedAt),
    parkedAt: iso(parked.parkedAt),
    ...(parked.ttlMs !== undefined && { ttlSeconds: parked.ttlMs / 1000 }),
    ...(parked.reason !== undefined && { reason: parked.reason }),
  };
}

export function memoView(memo: MemoRecord): Memo {
  return { key: memo.key, value: memo.value, version: memo.version, updatedBy: memo.updatedBy, updatedAt: iso(memo.updatedAt) };
}

export function controlView(control: ControlRecord) {
  return { state: control.state, ...(control.reason !== undefined && { reason: control.reason }), setBy: control.setBy, setAt: iso(control.setAt) };
}

export function controlBrief(control: ControlRecord): ControlBrief {
  return { state: control.state, ...(control.reason !== undefined && { reason: control.reason }) };
}
