import { createHash } from 'node:crypto';
import { FleetError, type ParsedParams, type ResultBody } from '../../contracts/index.js';
import { actorName, assertMayActAsOperator, requireAgent } from './authority.js';
import type { Caller, Credential, Ctx } from './context.js';
import { agentExpiresAt, agentTtlOf, GONE_AGENT_RETENTION_MS, hasRegisteredProcess, silentWithItsPlane, STALLED_AFTER_TTLS } from './liveness.js';
import type { AgentRecord } from './state.js';
import { releaseAllOf } from './territory.js';
import { releaseLeasesOf } from './leases.js';
import { returnWorkOf } from './work-lifecycle.js';
import { awaitingLandingOf } from './write-set-awaiting-landing.js';

export type JoinRequest = ParsedParams<'fleet_agent_join'> & {
  /** Start time of `pid`, read by the plane when it registers the pid. */
  pidStart?: string;
};

export type JoinOutcome = ResultBody<'fleet_agent_join'>;

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** `credential` is what the joining connection presented (the plane token unless said): role operator needs the operator's own. */
export function join(ctx: Ctx, req: JoinRequest, credential: Credential = 'plane'): JoinOutcome {
  assertMayActAsOperator(req.role, credential, req.callsign);
  const liveId = ctx.indexes.liveCallsigns.get(req.callsign);
  if (req.sessionToken !== undefined) {
    const known = findByCallsign(ctx, req.callsign, liveId);
    if (known) {
      if (known.tokenHash !== hashToken(req.sessionToken)) {
        throw new FleetError('SESSION_INVALID', `that sessionToken does not belong to ${req.callsign}: use the token its join returned, or join under another callsign`);
      }
      assertMayActAsOperator(known.role, credential, known.callsign);
      ctx.emit({ type: 'agent.rejoined', agentId: known.agentId, by: known.callsign, worktree: req.worktree, pid: req.pid, pidStart: req.pidStart, ...thisPlane(ctx) });
      ctx.schedule(ctx.now + agentTtlOf(known, ctx.config), { kind: 'agent', agentId: known.agentId });
      return { agentId: known.agentId, callsign: known.callsign, sessionToken: req.sessionToken, rejoined: true };
    }
  } else if (liveId !== undefined) {
    throw new FleetError('CALLSIGN_TAKEN', `${req.callsign} is live on the roster: re-join with its sessionToken to continue as it, or pick another callsign`, { callsign: req.callsign });
  }
  const agentId = ctx.ids.id('ag');
  const sessionToken = req.sessionToken ?? ctx.ids.token();
  ctx.emit({
    type: 'agent.joined',
    by: req.callsign,
    agentId,
    callsign: req.callsign,
    runtime: req.runtime,
    role: req.role ?? 'worker',
    tier: req.tier ?? 'local',
    worktree: req.worktree,
    pid: req.pid,
    pidStart: req.pidStart,
    tokenHash: hashToken(sessionToken),
    ...thisPlane(ctx),
  });
  ctx.schedule(ctx.now + agentTtlOf({ tier: req.tier ?? 'local' }, ctx.config), { kind: 'agent', agentId });
  return { agentId, callsign: req.callsign, sessionToken, rejoined: false };
}

/** On a shared log, the plane that heard an agent (DESIGN §16: its silence is the plane's when the plane is silent too). */
function thisPlane(ctx: Ctx): { plane?: string } {
  return ctx.config.planeId !== undefined ? { plane: ctx.config.planeId } : {};
}

/** The live holder of a callsign, else the most recent gone one (whose token may revive it). */
function findByCallsign(ctx: Ctx, callsign: string, liveId: string | undefined): AgentRecord | undefined {
  if (liveId !== undefined) return ctx.state.agents.get(liveId);
  let latest: AgentRecord | undefined;
  for (const agent of ctx.state.agents.values()) {
    if (agent.callsign === callsign && (!latest || agent.joinedAt >= latest.joinedAt)) latest = agent;
  }
  return latest;
}

export type HeartbeatRequest = ParsedParams<'fleet_agent_heartbeat'>;

export function heartbeat(ctx: Ctx, caller: Caller, req: HeartbeatRequest): AgentRecord {
  const agent = requireAgent(ctx.state, caller);
  ctx.emit({ type: 'agent.heartbeat', by: agent.callsign, agentId: agent.agentId, ...req, ...thisPlane(ctx) });
  return agent;
}

/**
 * Any call an agent makes counts as a heartbeat. It is kept in memory, not logged, so that a
 * check costs no disk write; a restart gives every live agent a fresh TTL anyway. An agent that
 * had been marked unknown gets a logged heartbeat so the roster's history shows it came back.
 */
export function touch(ctx: Ctx, caller: Caller): void {
  if (caller.kind !== 'agent') return;
  const agent = ctx.state.agents.get(caller.agentId);
  if (!agent || agent.gone) return;
  if (agent.markedUnknown) ctx.emit({ type: 'agent.heartbeat', by: agent.callsign, agentId: agent.agentId, ...thisPlane(ctx) });
  agent.lastSeen = Math.max(agent.lastSeen, ctx.now);
}

export function leave(ctx: Ctx, caller: Caller): string[] {
  const agent = requireAgent(ctx.state, caller);
  const released = releaseAllOf(ctx, agent.agentId, 'agent_left', actorName(ctx.state, caller));
  releaseLeasesOf(ctx, agent.agentId, 'agent_left');
  returnWorkOf(ctx, agent.agentId, `${agent.callsign} left`);
  ctx.emit({ type: 'agent.left', by: agent.callsign, agentId: agent.agentId, ...awaitingLandingOf(ctx.state, ctx.indexes, agent.agentId) });
  return released;
}

/**
 * Sweeper step for one agent: mark it unknown after one TTL of silence and expire it after two —
 * unless its registered process still runs: that agent is shown stalled after three TTLs and ends
 * only when the plane sees its process end (`processExited`). A gone agent is pruned once the
 * retention window has passed.
 */
export function sweepAgent(ctx: Ctx, agentId: string): void {
  const agent = ctx.state.agents.get(agentId);
  if (!agent) return;
  if (agent.gone) {
    // A claim still in escrow names its gone sender until the handoff settles: keep it till then.
    const holdsEscrow = (ctx.indexes.claimsByAgent.get(agentId)?.size ?? 0) > 0;
    const pruneAt = Math.max((agent.goneAt ?? agent.lastSeen) + GONE_AGENT_RETENTION_MS, holdsEscrow ? ctx.now + ctx.config.agentTtlMs : 0);
    if (ctx.now >= pruneAt) ctx.emit({ type: 'agent.pruned', by: 'plane', agentId });
    else ctx.schedule(pruneAt, { kind: 'agent', agentId });
    return;
  }
  const ttl = agentTtlOf(agent, ctx.config);
  const registered = hasRegisteredProcess(agent);
  const expiresAt = agentExpiresAt(agent, ctx.config);
  if (!registered && ctx.now >= expiresAt && silentWithItsPlane(agent, ctx.now, ctx.config)) {
    // Its plane is silent too: credited as the plane's stall, held until the plane is heard or counts as dead.
    if (!agent.markedStalled) ctx.emit({ type: 'agent.stalled', by: 'plane', agentId });
    ctx.schedule(Math.min(ctx.now + ttl, agent.planeHeardAt! + ctx.config.planeDeathTtlMs!), { kind: 'agent', agentId });
    return;
  }
  if (!registered && ctx.now >= expiresAt) {
    endAgent(ctx, agent, 'expired', `${agent.callsign} went silent and expired`);
    ctx.emit({ type: 'agent.expired', by: 'plane', agentId, ...awaitingLandingOf(ctx.state, ctx.indexes, agentId) });
    return;
  }
  const unknownAt = agent.lastSeen + ttl;
  if (ctx.now < unknownAt) {
    ctx.schedule(unknownAt, { kind: 'agent', agentId });
    return;
  }
  if (!agent.markedUnknown) ctx.emit({ type: 'agent.unknown', by: 'plane', agentId });
  if (!registered) {
    ctx.schedule(expiresAt, { kind: 'agent', agentId });
    return;
  }
  const stalledAt = agent.lastSeen + STALLED_AFTER_TTLS * ttl;
  if (ctx.now < stalledAt) {
    ctx.schedule(stalledAt, { kind: 'agent', agentId });
    return;
  }
  if (!agent.markedStalled) ctx.emit({ type: 'agent.stalled', by: 'plane', agentId });
  // Time decides nothing more; a deadline stays so that a later silence is noticed again.
  ctx.schedule(ctx.now + ttl, { kind: 'agent', agentId });
}

/**
 * The plane saw an agent's registered process end (or its pid now name another process): the
 * agent is gone and its claims are released now, not after 2 × TTL. Escrowed claims follow their
 * handoff. Ignored when the agent re-joined with another process since the plane looked.
 */
export function processExited(ctx: Ctx, agentId: string, pid: number, pidStart: string): void {
  const agent = ctx.state.agents.get(agentId);
  if (!agent || agent.gone || agent.pid !== pid || agent.pidStart !== pidStart) return;
  endAgent(ctx, agent, 'process_exited', `${agent.callsign}'s process (pid ${pid}) exited`);
  ctx.emit({ type: 'agent.process_exited', by: 'plane', agentId, pid, ...awaitingLandingOf(ctx.state, ctx.indexes, agentId) });
}

/** What the plane does for an agent that ends without leaving; its pruning is due a retention window later. */
function endAgent(ctx: Ctx, agent: AgentRecord, reason: 'expired' | 'process_exited', why: string): void {
  releaseAllOf(ctx, agent.agentId, reason, 'plane');
  releaseLeasesOf(ctx, agent.agentId, reason);
  returnWorkOf(ctx, agent.agentId, why);
  ctx.schedule(ctx.now + GONE_AGENT_RETENTION_MS, { kind: 'agent', agentId: agent.agentId });
}
