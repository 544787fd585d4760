import { ACCEPTED_STATUSES, FleetError, type BuildArtifact, type BuildPlan, type Decision, type DiffSummary, type VerificationReport, type WorkIntegration } from '../../contracts/index.js';
import { isOperator, isRteOrOperator, actorName, requireAgent } from './authority.js';
import type { Caller, Ctx } from './context.js';
import type { WorkRecord } from './orchestration-records.js';
import { callsignOf } from './views.js';
import { escalateWork, spentBudget } from './work-budgets.js';
import { releaseAtOf } from './integration-config.js';
import { landingName, landOnAccept, queueRevert, revertsOnTrain, takeOffTrain } from './integration-train.js';
import { freeBuilder, holdItemClaims, releaseHeldClaims, releaseItemClaims } from './work-claims.js';
import { answerClarification, askClarification, type ClarificationAnswer, type ClarificationAsk } from './work-clarification.js';
import { requirePlanIfConfigured, submitPlan, verificationRequestFor } from './work-plan.js';
import { answeredRefs, currentRefs, producerOf, seal } from './work-artifacts.js';
import { requireCitations } from './work-citations.js';
import { latestGuidanceRef } from './work-guidance.js';
import { orchestratorDecision } from './work-orchestrator-decision.js';
import { rollbackRemediation } from './work-rollback-remediation.js';

export type WorkUpdate =
  /**
   * `integration`: the builder's branch, when it works on a branch of its own; `diffSummary`: what
   * changed in its worktree since the start commit (the handler reads both with git).
   */
  | { action: 'complete'; artifact: BuildArtifact; integration?: WorkIntegration; diffSummary?: DiffSummary }
  | { action: 'verify'; report: VerificationReport }
  | { action: 'decide'; decision: Decision }
  | { action: 'plan'; plan: BuildPlan }
  | ({ action: 'clarify' } & ClarificationAsk)
  | ({ action: 'answer' } & ClarificationAnswer);

export interface WorkUpdateOutcome {
  item: WorkRecord;
  /** The clarification request asked (when the item escalated instead, the question it carries to the operator). */
  clarificationId?: string;
}

/**
 * The lifecycle: a builder's completion claim moves an item to review, nothing more; a verifier's
 * report moves it to verified or rework; only an RTE or operator decision makes it done.
 */
export function updateWork(ctx: Ctx, caller: Caller, itemId: string, update: WorkUpdate): WorkUpdateOutcome {
  const item = ctx.state.work.get(itemId);
  if (!item) throw new FleetError('NOT_FOUND', `no work item ${itemId}`);
  switch (update.action) {
    case 'plan':
      submitPlan(ctx, requireBuilder(ctx, caller, 'plan'), item, update.plan);
      break;
    case 'clarify':
      return { item, clarificationId: askClarification(ctx, caller, item, update).id };
    case 'answer':
      answerClarification(ctx, caller, item, update);
      break;
    case 'complete':
      complete(ctx, caller, item, update);
      break;
    case 'verify':
      verify(ctx, caller, item, update.report);
      break;
    case 'decide':
      decide(ctx, caller, item, update.decision);
      break;
  }
  return { item };
}

function requireBuilder(ctx: Ctx, caller: Caller, what: string) {
  const agent = requireAgent(ctx.state, caller);
  if (agent.role === 'verifier') throw new FleetError('FORBIDDEN', `verifiers judge, they do not build: a verifier cannot ${what} work`);
  return agent;
}

function complete(ctx: Ctx, caller: Caller, item: WorkRecord, { artifact, integration, diffSummary }: Extract<WorkUpdate, { action: 'complete' }>): void {
  const agent = requireBuilder(ctx, caller, 'complete');
  if (item.status !== 'in_progress' || item.assignee !== agent.agentId) {
    throw new FleetError('INVALID_STATE', `${item.id} is ${item.status}${item.assignee ? '' : ' and unassigned'}: only its builder completes it, while it is in progress`);
  }
  requirePlanIfConfigured(ctx, item);
  // The builder is done writing. In a shared checkout its territory for the item goes back to the
  // fleet; on a branch of its own the item keeps it until the branch lands (DESIGN §14).
  if (integration !== undefined && item.scope !== undefined && releaseAtOf(ctx.state, item.scope) === 'landed') {
    holdItemClaims(ctx, item, agent.agentId, integration.writeSet, agent.callsign);
  } else releaseItemClaims(ctx, item, agent.agentId, agent.callsign);
  const sourceRefs = [latestGuidanceRef(ctx.state, item.id, agent.callsign), item.startCommit, ...currentRefs(item, 'plan', 'report', 'decision'), ...answeredRefs(item)];
  const sealed = seal(ctx, 'BuildArtifact', { ...artifact, ...(diffSummary !== undefined && { diffSummary }) }, { workItem: item.id, producer: { role: agent.role, name: agent.callsign }, sourceRefs });
  ctx.emit({ type: 'work.transitioned', by: agent.callsign, itemId: item.id, status: 'review', artifact: sealed, verifier: null, verificationRequest: verificationRequestFor(ctx, item, sealed), ...(integration !== undefined && { integration }) });
}

function verify(ctx: Ctx, caller: Caller, item: WorkRecord, sent: VerificationReport): void {
  const agent = requireAgent(ctx.state, caller);
  if (agent.role !== 'verifier') throw new FleetError('FORBIDDEN', 'only an agent with role verifier reports verdicts');
  if (item.status !== 'review') throw new FleetError('INVALID_STATE', `${item.id} is ${item.status}: only work in review is verified`);
  if (item.assignee === agent.agentId) throw new FleetError('FORBIDDEN', 'verification must be independent: the builder cannot verify its own work');
  if (item.verifier !== undefined && item.verifier !== agent.agentId) {
    throw new FleetError('FORBIDDEN', `${item.id} is being verified by ${callsignOf(ctx.state, item.verifier)}, who pulled it`);
  }
  const verdicts = new Map(sent.verdicts.map((v) => [v.criterion, v.verdict]));
  const unnamed = item.criteria.filter((c) => !verdicts.has(c));
  if (unnamed.length > 0) throw new FleetError('INVALID_PARAMS', `the report must name every criterion of ${item.id} with its evidence; missing: ${unnamed.join('; ')}`);
  const sourceRefs = [...currentRefs(item, 'verificationRequest', 'artifact'), latestGuidanceRef(ctx.state, item.id, agent.callsign)];
  const report = seal(ctx, 'VerificationReport', sent, { workItem: item.id, producer: { role: agent.role, name: agent.callsign }, sourceRefs });
  const failed = report.verdicts.some((v) => v.verdict === 'fail');
  const allPassed = [...verdicts.values()].every((v) => v === 'pass') && item.criteria.every((c) => verdicts.get(c) === 'pass');
  const transition = { by: agent.callsign, itemId: item.id, report };
  if (failed) {
    const escalation = spentBudget(ctx, item, 'rework', agent.callsign);
    if (escalation) escalateWork(ctx, item, escalation, { report, verifier: agent.agentId });
    else {
      const decision = orchestratorDecision(ctx, item, 'rework', 'verification-failed', [report.artifactId], 'rework');
      ctx.emit({ type: 'work.transitioned', ...transition, status: 'rework', verifier: agent.agentId, reworkRounds: item.reworkRounds + 1, decision });
    }
    return;
  }
  // Inconclusive evidence leaves the item in review for another look or a decision.
  const status = allPassed ? 'verified' : 'review';
  ctx.emit({ type: 'work.transitioned', ...transition, status, verifier: status === 'review' ? null : agent.agentId });
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
  // A landed item is rolled back by the train: its landing reverted, built, landed.
  const revert = decision.disposition === 'rollback' && revertsOnTrain(item);
  const rollbackRef = decision.disposition === 'rollback' ? (decision.rollbackRef ?? (revert ? item.landedCommit : item.startCommit)) : undefined;
  // An item never started wrote nothing: only work that was done needs the commit to return to.
  if (rollbackRef === undefined && decision.disposition === 'rollback' && (item.status !== 'ready' || item.artifact !== undefined)) {
    throw new FleetError('INVALID_PARAMS', `${item.id} recorded no start commit (pulled outside a git worktree): a rollback names the commit to return to in decision.rollbackRef`);
  }
  requireCitations(ctx, caller, item, decision);
  const rework = decision.disposition === 'rework' ? reworkRound(ctx, caller, item, by) : {};
  if (rework === undefined) return;
  const onTrain = item.status === 'landing'; // read before the transition below changes the record
  const status = revert ? item.status : DISPOSITION_STATUS[decision.disposition];
  const applied = {
    // The train applies a revert's status later: until then the decision has no mutation of its own.
    ...(!revert && { statusMutation: { from: item.status, to: status } }),
    ...(rollbackRef !== undefined && { rollbackRef }),
    ...(rollbackRef !== undefined && !revert && { remediation: rollbackRemediation(item, rollbackRef) }),
  };
  const sealed = seal(ctx, 'OrchestratorDecision', { ...decision, ...applied }, { workItem: item.id, producer: producerOf(ctx, caller), sourceRefs: [...decision.refs, rollbackRef] });
  ctx.emit({
    type: 'work.transitioned',
    by,
    itemId: item.id,
    status,
    decision: sealed,
    reason: revert ? `${decision.reasonCode}: its landing ${landingName(item.landedCommit!, item.landedOnto)} is reverted through the train` : decision.reasonCode,
    ...rework,
    ...(item.escalation !== undefined && decision.disposition !== 'escalate' && { escalation: null }),
    ...freeBuilder(ctx, item, by),
  });
  if (onTrain) takeOffTrain(ctx, item.id, by, `${decision.disposition} decided while it was on the train: it does not land`);
  // Rolled back: nothing of it will land, so its territory goes back to the fleet.
  if (decision.disposition === 'rollback') releaseHeldClaims(ctx, item.id, by, `${item.id} rolled back`);
  if (revert) queueRevert(ctx, item, by);
  if (decision.disposition === 'accept') {
    landOnAccept(ctx, item, by);
    completeParents(ctx, item);
  }
}

/**
 * A rework decision spends a round too. With none left an RTE's escalates the item to the
 * operator (undefined: nothing more to do); the operator raises the budget first.
 */
function reworkRound(ctx: Ctx, caller: Caller, item: WorkRecord, by: string): { reworkRounds: number } | undefined {
  const escalation = spentBudget(ctx, item, 'rework', by);
  if (!escalation) return { reworkRounds: item.reworkRounds + 1 };
  if (isOperator(ctx.state, caller)) {
    throw new FleetError('INVALID_STATE', `${item.id} has spent its rework budget (${escalation.spent} of ${escalation.limit} rounds): raise it (fleet_work_configure with id) or roll back`);
  }
  escalateWork(ctx, item, escalation);
  return undefined;
}

/** A container is done once all its children are: the goal hierarchy closes itself upward. */
function completeParents(ctx: Ctx, item: WorkRecord): void {
  const parent = item.parent !== undefined ? ctx.state.work.get(item.parent) : undefined;
  if (!parent || parent.status === 'done') return;
  const children = [...ctx.state.work.values()].filter((w) => w.parent === parent.id);
  // Accepted is enough: a child on the train (landing, landed) is done as far as its parent goes.
  if (!children.every((w) => ACCEPTED_STATUSES.has(w.status))) return;
  ctx.emit({ type: 'work.transitioned', by: 'plane', itemId: parent.id, status: 'done', reason: 'all children done' });
  completeParents(ctx, parent);
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
    } else if (item.status === 'escalated' && item.escalation?.waitedIn === 'in_progress' && item.assignee === agentId) {
      // Its question still waits for the operator; the answer then returns it to the queue.
      ctx.emit({ type: 'work.transitioned', by: 'plane', itemId: item.id, status: 'escalated', assignee: null, escalation: { ...item.escalation, waitedIn: 'ready' }, reason });
    }
  }
}
