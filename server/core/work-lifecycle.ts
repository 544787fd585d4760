import { FleetError, type BuildArtifact, type Decision, type VerificationReport } from '../../contracts/index.js';
import { isRteOrOperator, actorName, requireAgent } from './authority.js';
import type { Caller, Ctx } from './context.js';
import type { WorkRecord } from './orchestration-records.js';
import { releaseClaim } from './territory.js';
import { callsignOf } from './views.js';

export type WorkUpdate =
  | { action: 'complete'; artifact: BuildArtifact }
  | { action: 'verify'; report: VerificationReport }
  | { action: 'decide'; decision: Decision };

/**
 * The lifecycle: a builder's completion claim moves an item to review, nothing more; a verifier's
 * report moves it to verified or rework; only an RTE or operator decision makes it done.
 */
export function updateWork(ctx: Ctx, caller: Caller, itemId: string, update: WorkUpdate): WorkRecord {
  const item = ctx.state.work.get(itemId);
  if (!item) throw new FleetError('NOT_FOUND', `no work item ${itemId}`);
  switch (update.action) {
    case 'complete':
      complete(ctx, caller, item, update.artifact);
      break;
    case 'verify':
      verify(ctx, caller, item, update.report);
      break;
    case 'decide':
      decide(ctx, caller, item, update.decision);
      break;
  }
  return item;
}

function complete(ctx: Ctx, caller: Caller, item: WorkRecord, artifact: BuildArtifact): void {
  const agent = requireAgent(ctx.state, caller);
  if (agent.role === 'verifier') throw new FleetError('FORBIDDEN', 'verifiers judge, they do not build: a verifier cannot complete work');
  if (item.status !== 'in_progress' || item.assignee !== agent.agentId) {
    throw new FleetError('INVALID_STATE', `${item.id} is ${item.status}${item.assignee ? '' : ' and unassigned'}: only its builder completes it, while it is in progress`);
  }
  // The builder is done writing: its territory for the item goes back to the fleet.
  releaseItemClaims(ctx, item, agent.agentId, agent.callsign);
  ctx.emit({ type: 'work.transitioned', by: agent.callsign, itemId: item.id, status: 'review', artifact, verifier: null });
}

function verify(ctx: Ctx, caller: Caller, item: WorkRecord, report: VerificationReport): void {
  const agent = requireAgent(ctx.state, caller);
  if (agent.role !== 'verifier') throw new FleetError('FORBIDDEN', 'only an agent with role verifier reports verdicts');
  if (item.status !== 'review') throw new FleetError('INVALID_STATE', `${item.id} is ${item.status}: only work in review is verified`);
  if (item.assignee === agent.agentId) throw new FleetError('FORBIDDEN', 'verification must be independent: the builder cannot verify its own work');
  if (item.verifier !== undefined && item.verifier !== agent.agentId) {
    throw new FleetError('FORBIDDEN', `${item.id} is being verified by ${callsignOf(ctx.state, item.verifier)}, who pulled it`);
  }
  const verdicts = new Map(report.verdicts.map((v) => [v.criterion, v.verdict]));
  const failed = report.verdicts.some((v) => v.verdict === 'fail');
  const allPassed = [...verdicts.values()].every((v) => v === 'pass') && item.criteria.every((c) => verdicts.get(c) === 'pass');
  // Inconclusive evidence leaves the item in review for another look or a decision.
  const status = failed ? 'rework' : allPassed ? 'verified' : 'review';
  ctx.emit({ type: 'work.transitioned', by: agent.callsign, itemId: item.id, status, report, verifier: status === 'review' ? null : agent.agentId });
}

const DISPOSITION_STATUS = { accept: 'done', rework: 'rework', rollback: 'rolled_back', escalate: 'escalated' } as const;

function decide(ctx: Ctx, caller: Caller, item: WorkRecord, decision: Decision): void {
  if (!isRteOrOperator(ctx.state, caller)) throw new FleetError('FORBIDDEN', 'deciding work needs role rte or the operator');
  if (item.status === 'done' || item.status === 'rolled_back') throw new FleetError('INVALID_STATE', `${item.id} is already ${item.status}`);
  if (decision.disposition === 'accept') {
    if (item.status !== 'verified') throw new FleetError('INVALID_STATE', `${item.id} is ${item.status}: it is accepted only after a verifier's passing report`);
    if (item.blockedBy.length > 0) throw new FleetError('INVALID_STATE', `${item.id} has unresolved clarification requests: ${item.blockedBy.join(', ')}`);
  }
  const by = actorName(ctx.state, caller);
  // Decided while still being built: the builder's territory is freed so the item is not stranded.
  const wasInProgress = item.status === 'in_progress' && item.assignee !== undefined;
  if (wasInProgress) releaseItemClaims(ctx, item, item.assignee!, by);
  ctx.emit({
    type: 'work.transitioned',
    by,
    itemId: item.id,
    status: DISPOSITION_STATUS[decision.disposition],
    decision,
    reason: decision.reasonCode,
    ...(wasInProgress && { assignee: null }),
  });
  if (decision.disposition === 'accept') completeParents(ctx, item);
}

/** A container is done once all its children are: the goal hierarchy closes itself upward. */
function completeParents(ctx: Ctx, item: WorkRecord): void {
  const parent = item.parent !== undefined ? ctx.state.work.get(item.parent) : undefined;
  if (!parent || parent.status === 'done') return;
  const children = [...ctx.state.work.values()].filter((w) => w.parent === parent.id);
  if (!children.every((w) => w.status === 'done')) return;
  ctx.emit({ type: 'work.transitioned', by: 'plane', itemId: parent.id, status: 'done', reason: 'all children done' });
  completeParents(ctx, parent);
}

/** Releases the claims a pull made for the item (they carry its id in their reason). */
function releaseItemClaims(ctx: Ctx, item: WorkRecord, agentId: string, by: string): void {
  const prefix = `work ${item.id}:`;
  for (const claimId of ctx.indexes.claimIdsOf(agentId)) {
    if (ctx.state.claims.get(claimId)?.reason?.startsWith(prefix)) releaseClaim(ctx, claimId, 'released', by);
  }
}

/**
 * Work held by an agent that left or expired goes back to the queue, with the reason recorded;
 * an item travelling with one of its pending handoffs waits for that handoff instead.
 */
export function returnWorkOf(ctx: Ctx, agentId: string, reason: string): void {
  const travelling = new Set<string>();
  for (const handoff of ctx.state.handoffs.values()) {
    if (handoff.status === 'pending' && handoff.fromAgentId === agentId && handoff.envelope.workItem !== undefined) travelling.add(handoff.envelope.workItem);
  }
  for (const item of ctx.state.work.values()) {
    if (item.status === 'in_progress' && item.assignee === agentId && !travelling.has(item.id)) {
      ctx.emit({ type: 'work.transitioned', by: 'plane', itemId: item.id, status: 'ready', assignee: null, reason });
    } else if (item.status === 'review' && item.verifier === agentId) {
      ctx.emit({ type: 'work.transitioned', by: 'plane', itemId: item.id, status: 'review', verifier: null, reason });
    }
  }
}
