import { ACCEPTED_STATUSES, FleetError, type TrainEntry, type WorkIntegration } from '../../contracts/index.js';
import { actorName, isRteOrOperator } from './authority.js';
import type { Caller, Ctx } from './context.js';
import { integrationConfigOf } from './integration-config.js';
import type { WorkRecord } from './orchestration-records.js';
import type { State, TrainBatchRecord, TrainRecord } from './state.js';
import { iso } from './views.js';
import { escalateWork, spentBudget } from './work-budgets.js';
import { releaseHeldClaims } from './work-claims.js';

/**
 * The train's pure queue state (DESIGN §14, §16), as bors-ng's batcher keeps it: items queued at a
 * pinned commit, one batch per scope at a time, and every step that the git side (server/
 * integration/train/) is about to make irreversible recorded first, so a restart resumes it.
 */

export interface LandingRequest {
  scope: string;
  /** The item to land; a bare branch (no item) gets an entry id of its own. */
  itemId?: string;
  branch: string;
  commit: string;
  target: string;
  repository: string;
}

/** Queues an item's branch on the train (RTE or operator), pinned at `commit`. */
export function queueLanding(ctx: Ctx, caller: Caller, request: LandingRequest): TrainRecord {
  if (!isRteOrOperator(ctx.state, caller)) throw new FleetError('FORBIDDEN', 'landing work needs role rte or the operator');
  return enqueue(ctx, actorName(ctx.state, caller), request);
}

function enqueue(ctx: Ctx, by: string, request: LandingRequest): TrainRecord {
  const item = request.itemId !== undefined ? requireLandable(ctx.state, request.itemId) : undefined;
  const itemId = request.itemId ?? ctx.ids.id('land');
  const onTrain = ctx.state.train.get(itemId);
  // Queuing twice is a harmless retry.
  if (onTrain && (onTrain.status === 'queued' || onTrain.status === 'building')) return onTrain;
  ctx.emit({ type: 'integration.queued', by, itemId, scope: request.scope, branch: request.branch, commit: request.commit, target: request.target, repository: request.repository });
  if (item) ctx.emit({ type: 'work.transitioned', by, itemId: item.id, status: 'landing', reason: `queued on the train for ${request.target} at ${request.commit.slice(0, 12)}` });
  return ctx.state.train.get(itemId)!;
}

/** The item to land, refused with the reason when it cannot be: unknown, not accepted, already landed, no branch of its own. */
export function requireLandable(state: State, itemId: string): WorkRecord {
  const item = state.work.get(itemId);
  if (!item) throw new FleetError('NOT_FOUND', `no work item ${itemId}`);
  if (item.status === 'landed') throw new FleetError('INVALID_STATE', `${itemId} has already landed (${item.landedCommit ?? 'commit unknown'})`);
  if (!ACCEPTED_STATUSES.has(item.status)) throw new FleetError('INVALID_STATE', `${itemId} is ${item.status}: only accepted work lands (decide accept first)`);
  if (item.integration === undefined || item.scope === undefined) {
    throw new FleetError('INVALID_STATE', `${itemId} was not built on a branch of its own (its builder completed it in a shared checkout, or outside git): there is no branch to land; land the branch by name instead`);
  }
  if (nothingCommitted(item.integration)) throw new FleetError('INVALID_STATE', `${itemId} was completed with nothing committed on ${item.integration.branch} beyond ${item.integration.target} (its work was only edits in the worktree): there is nothing to land; the builder commits and completes again`);
  return item;
}

/** Completed at the branch's merge-base with the target: its work was never committed, so nothing of it can land (nor count as landed). */
export function nothingCommitted(integration: WorkIntegration | undefined): boolean {
  return integration !== undefined && integration.commit === integration.base;
}

/** What landing an item queues: its branch at the commit it was completed (and verified) at. */
export function landingOf(item: WorkRecord): LandingRequest {
  const { branch, commit, target, repository } = item.integration!;
  return { scope: item.scope!, itemId: item.id, branch, commit, target, repository };
}

/** Whether a rollback of `item` goes through the train: it landed, and the plane knows the commits that landed it. */
export function revertsOnTrain(item: WorkRecord): boolean {
  return item.status === 'landed' && item.landedCommit !== undefined && item.integration !== undefined && item.scope !== undefined && (!landedAsItsOwnCommits(item) || item.integration.base !== undefined);
}

/**
 * Whether the commit that landed `item` is its branch head itself (a fast-forward or rebase seen on
 * the target by ancestry): its landing is then all of its own commits since its merge-base, where a
 * merge or squash landing is one commit of the target's.
 */
function landedAsItsOwnCommits(item: WorkRecord): boolean {
  return item.landedCommit === item.integration?.commit;
}

/**
 * A rollback of a landed item (seed 001, DESIGN §14): exactly its landing is reverted, as a commit
 * of its own built on the target by the train. The item stays landed until the revert lands. A
 * landing of several commits is a range: rebased onto the target (`landedOnto..landedCommit`), or
 * its own commits since the merge-base it was completed at.
 */
export function queueRevert(ctx: Ctx, item: WorkRecord, by: string): void {
  const { branch, target, repository, base } = item.integration!;
  const start = item.landedOnto ?? (landedAsItsOwnCommits(item) ? base : undefined);
  const from = start !== undefined ? { revertFrom: start } : {};
  ctx.emit({ type: 'integration.queued', by, itemId: item.id, scope: item.scope!, branch, commit: item.landedCommit!, target, repository, revert: item.landedCommit!, ...from });
}

/** The revert landed: the item is rolled back, with the revert commit. */
export function recordReverted(ctx: Ctx, itemId: string, commit: string): void {
  ctx.emit({ type: 'integration.left', by: 'plane', itemId, status: 'landed', landedCommit: commit });
  if (ctx.state.work.has(itemId)) ctx.emit({ type: 'work.transitioned', by: 'plane', itemId, status: 'rolled_back', reason: `reverted as ${commit.slice(0, 12)}` });
}

/** The revert cannot land (it conflicts with later landings, or breaks the build): the operator decides; history is never rewritten. */
export function escalateRevert(ctx: Ctx, itemId: string, reason: string, logTail?: string): void {
  ctx.emit({ type: 'integration.left', by: 'plane', itemId, status: 'failed', reason, ...(logTail !== undefined && { logTail }) });
  if (ctx.state.work.has(itemId)) ctx.emit({ type: 'work.transitioned', by: 'plane', itemId, status: 'escalated', reason });
}

/** With land-on-accept configured, an accepted item built on its own branch goes straight to the train. */
export function landOnAccept(ctx: Ctx, item: WorkRecord, by: string): void {
  if (item.scope === undefined || item.integration === undefined || nothingCommitted(item.integration) || !integrationConfigOf(ctx.state, item.scope).landOnAccept) return;
  enqueue(ctx, by, landingOf(item));
}

/**
 * An item landed: by the train (its merge commit), by hand (`fleet land --done`), or by a merge the
 * plane saw on the target (`onto`: its commits rebased onto that target commit, landed as
 * `onto..commit`). Its held claims end; an accepted item becomes `landed`, one that is not accepted
 * yet only records the commit.
 */
export function recordLanded(ctx: Ctx, itemId: string, commit: string | undefined, by: string, onto?: string): void {
  const entry = ctx.state.train.get(itemId);
  // Off the train too, so a queued entry is not landed a second time.
  if (entry && entry.leftAt === undefined) ctx.emit({ type: 'integration.left', by, itemId, status: 'landed', ...(commit !== undefined && { landedCommit: commit }) });
  releaseHeldClaims(ctx, itemId, by, `${itemId} landed${commit !== undefined ? ` as ${commit.slice(0, 12)}` : ''}`);
  const item = ctx.state.work.get(itemId);
  if (!item || item.status === 'landed') return;
  const status = ACCEPTED_STATUSES.has(item.status) ? 'landed' : item.status;
  ctx.emit({ type: 'work.transitioned', by, itemId, status, ...(commit !== undefined && { landedCommit: commit }), ...(commit !== undefined && onto !== undefined && { landedOnto: onto }), reason: commit !== undefined ? `landed as ${landingName(commit, onto)}` : 'marked landed by hand' });
}

/** A landing as people read it: its commit, or the range of commits it rebased onto the target. */
export function landingName(commit: string, onto?: string): string {
  return `${onto !== undefined ? `${onto.slice(0, 12)}..` : ''}${commit.slice(0, 12)}`;
}

/** `fleet land --done`: the operator or an RTE says the item landed outside the train. */
export function markLanded(ctx: Ctx, caller: Caller, itemId: string, commit: string | undefined): WorkRecord {
  if (!isRteOrOperator(ctx.state, caller)) throw new FleetError('FORBIDDEN', 'marking work landed needs role rte or the operator');
  const item = ctx.state.work.get(itemId);
  if (!item) throw new FleetError('NOT_FOUND', `no work item ${itemId}`);
  recordLanded(ctx, itemId, commit, actorName(ctx.state, caller));
  return item;
}

/**
 * The train cannot land an item as it stands (a textual conflict, a RED build that is its fault):
 * it goes back to its builder as a rework round, with the budget rules, the reason naming what to fix.
 */
export function returnToBuilder(ctx: Ctx, itemId: string, cause: 'conflict' | 'red', reason: string, logTail?: string): void {
  ctx.emit({ type: 'integration.left', by: 'plane', itemId, status: 'returned', cause, reason, ...(logTail !== undefined && { logTail }) });
  const item = ctx.state.work.get(itemId);
  if (!item) return;
  const escalation = spentBudget(ctx, item, 'rework', 'plane');
  if (escalation) escalateWork(ctx, item, escalation);
  else ctx.emit({ type: 'work.transitioned', by: 'plane', itemId, status: 'rework', reason, verifier: null, reworkRounds: item.reworkRounds + 1 });
}

/** The branch moved after it was queued: what would land is not what was verified, so it goes back to review. */
export function returnToReview(ctx: Ctx, itemId: string, reason: string): void {
  ctx.emit({ type: 'integration.left', by: 'plane', itemId, status: 'returned', cause: 'moved', reason });
  if (ctx.state.work.has(itemId)) ctx.emit({ type: 'work.transitioned', by: 'plane', itemId, status: 'review', verifier: null, reason });
}

/**
 * A decision (rework, rollback, escalate) on an item that is on the train: it does not land. A queued
 * entry leaves now; a building one leaves too, and the runner drops it before the batch lands.
 */
export function takeOffTrain(ctx: Ctx, itemId: string, by: string, reason: string): void {
  const entry = ctx.state.train.get(itemId);
  if (entry?.status === 'queued' || entry?.status === 'building') ctx.emit({ type: 'integration.left', by, itemId, status: 'returned', reason });
}

/** No rework fixes it (the target is checked out in a worktree, the remote refused): `land_failed`. */
export function failLanding(ctx: Ctx, itemId: string, reason: string): void {
  ctx.emit({ type: 'integration.left', by: 'plane', itemId, status: 'failed', reason });
  if (ctx.state.work.has(itemId)) ctx.emit({ type: 'work.transitioned', by: 'plane', itemId, status: 'land_failed', reason });
}

/** The next batch of a scope: the oldest queued entries, up to the batch size, when none is under way. */
export function nextBatch(state: State, scope: string): TrainRecord[] {
  if (state.trainBatches.has(scope)) return [];
  const size = integrationConfigOf(state, scope).batchSize;
  return [...state.train.values()].filter((e) => e.scope === scope && e.status === 'queued').slice(0, size);
}

/** Scopes with queued work or a batch to resume. */
export function scopesWithWork(state: State): string[] {
  const scopes = new Set(state.trainBatches.keys());
  for (const entry of state.train.values()) if (entry.status === 'queued') scopes.add(entry.scope);
  return [...scopes];
}

/** The lease whose holder integrates a scope: on a shared store exactly one plane at a time. */
export const integratorLease = (scope: string): string => `integration/${scope}/integrator`;

/** Records a batch merged onto `base` and building; with `tip`, built GREEN and about to move the target. */
export function recordBatch(ctx: Ctx, batch: Omit<TrainBatchRecord, 'at'>): void {
  ctx.emit({ type: 'integration.batch', by: 'plane', scope: batch.scope, itemIds: batch.itemIds, base: batch.base, ...(batch.tip !== undefined && { tip: batch.tip }), ...(batch.merges !== undefined && { merges: batch.merges }) });
}

/** The batch is over; `red`: its build failed (the digest counts RED trains). */
export function endBatch(ctx: Ctx, scope: string, red = false): void {
  if (ctx.state.trainBatches.has(scope)) ctx.emit({ type: 'integration.batch_ended', by: 'plane', scope, ...(red && { red }) });
}

export function trainEntryView(entry: TrainRecord): TrainEntry {
  const { itemId, scope, branch, commit, target, repository, revert, revertFrom, status, queuedBy, queuedAt, landedCommit, reason, logTail } = entry;
  return { itemId, scope, branch, commit, target, repository, ...(revert !== undefined && { revert }), ...(revertFrom !== undefined && { revertFrom }), status, queuedBy, queuedAt: iso(queuedAt), ...(landedCommit !== undefined && { landedCommit }), ...(reason !== undefined && { reason }), ...(logTail !== undefined && { logTail }) };
}
