import { FleetError, type BuildArtifact, type BuildPlan, type VerificationRequest } from '../../contracts/index.js';
import type { Ctx } from './context.js';
import type { WorkRecord } from './orchestration-records.js';
import type { AgentRecord } from './state.js';
import { answeredRefs, currentRefs, ORCHESTRATOR, seal } from './work-artifacts.js';
import { budgetsOf } from './work-budgets.js';
import { latestGuidanceRef, roleConstraintsOf } from './work-guidance.js';

/**
 * The builder's plan for an item it holds. Its coverage map names every criterion of the item and
 * no other, so the verifier's request can say what evidence each criterion expects.
 */
export function submitPlan(ctx: Ctx, agent: AgentRecord, item: WorkRecord, plan: BuildPlan): void {
  if (item.status !== 'in_progress' || item.assignee !== agent.agentId) {
    throw new FleetError('INVALID_STATE', `${item.id} is ${item.status}: only its builder plans it, while it is in progress`);
  }
  const covered = new Set(Object.keys(plan.coverage));
  const missing = item.criteria.filter((c) => !covered.has(c));
  if (missing.length > 0) throw new FleetError('INVALID_PARAMS', `the plan's coverage misses criteria of ${item.id}: ${missing.join('; ')}. Map each to how it will be shown met`);
  const unknown = [...covered].filter((c) => !item.criteria.includes(c));
  if (unknown.length > 0) throw new FleetError('INVALID_PARAMS', `the plan's coverage names criteria ${item.id} does not have: ${unknown.join('; ')}. Use the item's criteria word for word`);
  const sourceRefs = [latestGuidanceRef(ctx.state, item.id, agent.callsign), item.startCommit, ...currentRefs(item, 'report', 'decision'), ...answeredRefs(item)];
  // The budget envelope is the orchestrator's contract: the rounds the item has, whatever the builder sent.
  const enveloped = { ...plan, budgets: budgetsOf(ctx.state, item) };
  ctx.emit({ type: 'work.planned', by: agent.callsign, itemId: item.id, plan: seal(ctx, 'BuildPlan', enveloped, { workItem: item.id, producer: { role: agent.role, name: agent.callsign }, sourceRefs }) });
}

/** Refuses a completion the fleet wants planned first. */
export function requirePlanIfConfigured(ctx: Ctx, item: WorkRecord): void {
  if (ctx.state.workSettings.planRequired && item.plan === undefined) {
    throw new FleetError('INVALID_STATE', `${item.id} has no plan and this fleet requires one before completion: submit it with fleet_work_update action plan`);
  }
}

/**
 * What the verifier is asked to check: the item's criteria (else the builder's), each with the
 * evidence its plan promised, and the rules the verifier works under. The plane (the orchestrator)
 * produces it, resting on the build.
 */
export function verificationRequestFor(ctx: Ctx, item: WorkRecord, artifact: BuildArtifact): VerificationRequest {
  const criteria = item.criteria.length > 0 ? item.criteria : artifact.criteria;
  const ran = artifact.commands.map((c) => `${c.command} (exit ${c.exitCode})`).join(', ');
  return seal(ctx, 'VerificationRequest', {
    round: item.reworkRounds + 1,
    criteria,
    expectedEvidence: criteria.map((criterion) => ({
      criterion,
      evidence: (item.plan && Object.hasOwn(item.plan.coverage, criterion) ? item.plan.coverage[criterion] : undefined) ?? `evidence that it holds${ran ? `; the builder ran ${ran}` : ''}`,
    })),
    verifierConstraints: roleConstraintsOf('verifier'),
  }, { workItem: item.id, producer: ORCHESTRATOR, sourceRefs: [artifact.artifactId, ...currentRefs(item, 'plan')] });
}
