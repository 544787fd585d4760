import { FleetError, type HandoffEnvelope, type ParsedParams, type Recipient } from '../../contracts/index.js';
import { requireAgent } from './authority.js';
import type { Caller, Ctx } from './context.js';
import type { HandoffRecord } from './orchestration-records.js';
import type { AgentRecord } from './state.js';
import { assertMovable, moveClaim, releaseClaim, type GrantedClaim } from './territory.js';

/** How long a handoff waits for its recipient before its claims go back to the sender. */
export const DEFAULT_HANDOFF_TTL_MS = 30 * 60_000;

export type HandoffInput = Omit<HandoffEnvelope, 'from'> & { ttlSeconds?: number };

/**
 * Sends a handoff: the envelope is recorded and the listed claims go into escrow for the
 * recipient, so nobody else can take the territory while it changes hands.
 */
export function sendHandoff(ctx: Ctx, caller: Caller, input: HandoffInput): HandoffRecord {
  const sender = requireAgent(ctx.state, caller);
  if ('callsign' in input.to && input.to.callsign !== sender.callsign && !ctx.indexes.liveCallsigns.has(input.to.callsign)) {
    throw new FleetError('NOT_FOUND', `${input.to.callsign} is not on the roster: hand off to a live agent, or to a role ({"role": "builder"})`);
  }
  for (const claimId of input.claims) {
    const claim = ctx.state.claims.get(claimId);
    if (!claim) throw new FleetError('NOT_FOUND', `no live claim ${claimId} to hand off`, { claimId });
    if (claim.agentId !== sender.agentId) throw new FleetError('NOT_HOLDER', `claim ${claimId} is not yours to hand off`, { claimId });
    if (claim.escrow !== undefined) throw new FleetError('INVALID_STATE', `claim ${claimId} already travels with handoff ${claim.escrow}`, { claimId });
  }
  if (input.workItem !== undefined && !ctx.state.work.has(input.workItem)) throw new FleetError('NOT_FOUND', `no work item ${input.workItem}`);
  const { ttlSeconds, ...rest } = input;
  const envelope: HandoffEnvelope = { ...rest, from: sender.callsign };
  const handoffId = ctx.ids.id('ho');
  const expiresAt = ctx.now + (ttlSeconds !== undefined ? ttlSeconds * 1000 : DEFAULT_HANDOFF_TTL_MS);
  ctx.emit({ type: 'handoff.sent', by: sender.callsign, handoffId, fromAgentId: sender.agentId, envelope: { ...envelope, id: handoffId }, expiresAt });
  for (const claimId of input.claims) ctx.emit({ type: 'claim.escrowed', by: sender.callsign, claimId, handoffId });
  ctx.schedule(expiresAt, { kind: 'handoff', handoffId });
  return ctx.state.handoffs.get(handoffId)!;
}

export function isRecipient(agent: AgentRecord, to: Recipient): boolean {
  return 'callsign' in to ? to.callsign === agent.callsign : to.role === agent.role;
}

export type HandoffResponse = ParsedParams<'fleet_handoff_respond'>;

/** Accepting moves the escrowed claims (new fences) and the work item; declining returns them. */
export function respondHandoff(ctx: Ctx, caller: Caller, response: HandoffResponse): { handoff: HandoffRecord; claims: GrantedClaim[] } {
  const agent = requireAgent(ctx.state, caller);
  const handoff = ctx.state.handoffs.get(response.handoffId);
  if (!handoff) throw new FleetError('NOT_FOUND', `no handoff ${response.handoffId}`);
  if (handoff.status !== 'pending') {
    throw new FleetError('INVALID_STATE', `handoff ${handoff.id} is already ${handoff.status}${handoff.acceptedBy ? ` by ${handoff.acceptedBy}` : ''}: nothing left to respond to`);
  }
  if (!isRecipient(agent, handoff.envelope.to)) {
    throw new FleetError('FORBIDDEN', `handoff ${handoff.id} is for ${describeRecipient(handoff.envelope.to)}, not ${agent.callsign}`);
  }
  if (!response.accept) {
    settle(ctx, handoff, 'declined', agent.callsign, response.reason);
    return { handoff, claims: [] };
  }
  const escrowed = handoff.envelope.claims.flatMap((id) => {
    const claim = ctx.state.claims.get(id);
    return claim && claim.escrow === handoff.id ? [claim] : [];
  });
  assertMovable(ctx, escrowed.filter((c) => c.agentId !== agent.agentId), agent.agentId);
  const claims: GrantedClaim[] = [];
  for (const claim of escrowed) {
    const claimId = claim.id;
    ctx.emit({ type: 'claim.unescrowed', by: agent.callsign, claimId });
    // A handoff between sessions of the same agent keeps its claims as they are: no gap, no new fence.
    if (claim.agentId !== agent.agentId) claims.push(moveClaim(ctx, claim, agent.agentId, agent.callsign));
  }
  const item = handoff.envelope.workItem !== undefined ? ctx.state.work.get(handoff.envelope.workItem) : undefined;
  if (item && item.assignee === handoff.fromAgentId) {
    ctx.emit({ type: 'work.transitioned', by: agent.callsign, itemId: item.id, status: item.status, assignee: agent.agentId, reason: `handed off by ${handoff.envelope.from}` });
  }
  ctx.emit({ type: 'handoff.resolved', by: agent.callsign, handoffId: handoff.id, status: 'accepted', acceptedBy: agent.callsign, ...(response.reason !== undefined && { reason: response.reason }) });
  return { handoff, claims };
}

/** Declined or expired: escrowed claims return to the sender, or lapse if the sender is gone. */
function settle(ctx: Ctx, handoff: HandoffRecord, status: 'declined' | 'expired', by: string, reason?: string): void {
  const senderGone = ctx.state.agents.get(handoff.fromAgentId)?.gone !== undefined;
  for (const claimId of handoff.envelope.claims) {
    const claim = ctx.state.claims.get(claimId);
    if (!claim || claim.escrow !== handoff.id) continue;
    if (senderGone) releaseClaim(ctx, claimId, 'expired', by, `handoff ${handoff.id} ${status} and its sender is gone`);
    else ctx.emit({ type: 'claim.unescrowed', by, claimId });
  }
  const item = handoff.envelope.workItem !== undefined ? ctx.state.work.get(handoff.envelope.workItem) : undefined;
  if (senderGone && item?.status === 'in_progress' && item.assignee === handoff.fromAgentId) {
    ctx.emit({ type: 'work.transitioned', by, itemId: item.id, status: 'ready', assignee: null, reason: `handoff ${handoff.id} ${status} and its sender is gone` });
  }
  ctx.emit({ type: 'handoff.resolved', by, handoffId: handoff.id, status, ...(reason !== undefined && { reason }) });
}

/** Sweeper step: a handoff nobody accepted in time expires. */
export function sweepHandoff(ctx: Ctx, handoffId: string): void {
  const handoff = ctx.state.handoffs.get(handoffId);
  if (!handoff || handoff.status !== 'pending') return;
  if (ctx.now >= handoff.expiresAt) settle(ctx, handoff, 'expired', 'plane', 'nobody accepted it in time');
  else ctx.schedule(handoff.expiresAt, { kind: 'handoff', handoffId });
}

export function describeRecipient(to: Recipient): string {
  return 'callsign' in to ? to.callsign : `any ${to.role}`;
}
