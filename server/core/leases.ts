import { FleetError, type ParsedParams, type ResultBody } from '../../contracts/index.js';
import { isOperator, requireAgent } from './authority.js';
import type { Caller, Ctx } from './context.js';
import type { LeaseRecord } from './state.js';
import { callsignOf, iso } from './views.js';

export const RTE_LEASE = 'coordination/rte-lock';

export type LeaseRequest = ParsedParams<'fleet_rte_lease'>;
export type LeaseOutcome = ResultBody<'fleet_rte_lease'>;

/** Named leases with one holder at a time; a second claimant is refused the lease, never the join. */
export function lease(ctx: Ctx, caller: Caller, req: LeaseRequest): LeaseOutcome {
  const agent = requireAgent(ctx.state, caller);
  const name = req.name ?? RTE_LEASE;
  if ((name === RTE_LEASE || name.startsWith(`${RTE_LEASE}/`)) && agent.role !== 'rte' && !isOperator(ctx.state, caller)) {
    throw new FleetError('FORBIDDEN', `${name} is the RTE's lease: join with role "rte" to hold it`, { lease: name });
  }
  const runtime = name.startsWith(`${RTE_LEASE}/`) ? name.slice(RTE_LEASE.length + 1) : undefined;
  if (runtime !== undefined && agent.runtime !== runtime && !isOperator(ctx.state, caller)) {
    throw new FleetError('FORBIDDEN', `${name} is the lease of the ${runtime} RTE; ${agent.callsign} runs on ${agent.runtime}`, { lease: name });
  }
  const ttlMs = req.ttlSeconds !== undefined ? req.ttlSeconds * 1000 : ctx.config.leaseTtlMs;
  const current = live(ctx, name);
  const mine = current?.agentId === agent.agentId;
  if (req.fence !== undefined && (!mine || current!.fence !== req.fence)) {
    throw new FleetError('STALE_FENCE', `fence ${req.fence} is not the current fence of ${name}: acquire it again`, { lease: name, fence: req.fence });
  }
  switch (req.action) {
    case 'acquire':
      if (current && !mine) return outcome(ctx, name, current, false);
      if (mine) return extend(ctx, current!, ttlMs, agent.callsign);
      return acquire(ctx, name, agent.agentId, ttlMs, agent.callsign);
    case 'renew':
      if (!mine) throw notHolder(ctx, name, current);
      return extend(ctx, current!, ttlMs, agent.callsign);
    case 'release':
      if (!mine) throw notHolder(ctx, name, current);
      ctx.emit({ type: 'lease.released', by: agent.callsign, name, reason: 'released' });
      return { name, held: false, holder: null, expiresAt: null, fence: current!.fence };
  }
}

function live(ctx: Ctx, name: string): LeaseRecord | undefined {
  const current = ctx.state.leases.get(name);
  return current && current.expiresAt > ctx.now ? current : undefined;
}

function acquire(ctx: Ctx, name: string, agentId: string, ttlMs: number, by: string): LeaseOutcome {
  const stale = ctx.state.leases.get(name);
  if (stale) ctx.emit({ type: 'lease.released', by: 'plane', name, reason: 'expired' });
  const fence = (ctx.state.leaseFences.get(name) ?? 0) + 1;
  ctx.emit({ type: 'lease.acquired', by, name, agentId, fence, expiresAt: ctx.now + ttlMs });
  ctx.schedule(ctx.now + ttlMs, { kind: 'lease', name });
  return outcome(ctx, name, ctx.state.leases.get(name)!, true);
}

function extend(ctx: Ctx, current: LeaseRecord, ttlMs: number, by: string): LeaseOutcome {
  ctx.emit({ type: 'lease.renewed', by, name: current.name, expiresAt: ctx.now + ttlMs });
  ctx.schedule(ctx.now + ttlMs, { kind: 'lease', name: current.name });
  return outcome(ctx, current.name, current, true);
}

function outcome(ctx: Ctx, name: string, lease: LeaseRecord, held: boolean): LeaseOutcome {
  return { name, held, holder: callsignOf(ctx.state, lease.agentId), expiresAt: iso(lease.expiresAt), fence: lease.fence };
}

function notHolder(ctx: Ctx, name: string, current: LeaseRecord | undefined): FleetError {
  const who = current ? `is held by ${callsignOf(ctx.state, current.agentId)}` : 'is not held';
  return new FleetError('NOT_HOLDER', `${name} ${who}, not by you: acquire it first`, { lease: name });
}

export function releaseLeasesOf(ctx: Ctx, agentId: string, reason: 'agent_left' | 'expired' | 'process_exited'): void {
  for (const lease of [...ctx.state.leases.values()]) {
    if (lease.agentId === agentId) ctx.emit({ type: 'lease.released', by: 'plane', name: lease.name, reason });
  }
}

/** Sweeper step: a lease nobody renewed in time is released so the next claimant can take it. */
export function sweepLease(ctx: Ctx, name: string): void {
  const current = ctx.state.leases.get(name);
  if (!current) return;
  if (ctx.now >= current.expiresAt) ctx.emit({ type: 'lease.released', by: 'plane', name, reason: 'expired' });
  else ctx.schedule(current.expiresAt, { kind: 'lease', name });
}

/**
 * A lease held by a plane rather than an agent (the integrator of a scope, DESIGN §14): taken when
 * free or lapsed, extended while held; false when another plane holds it live.
 */
export function holdPlaneLease(ctx: Ctx, name: string, planeId: string, ttlMs: number): boolean {
  const current = live(ctx, name);
  if (current && current.agentId !== planeId) return false;
  if (current) extend(ctx, current, ttlMs, planeId);
  else acquire(ctx, name, planeId, ttlMs, planeId);
  return true;
}
