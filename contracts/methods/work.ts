import { z } from 'zod';
import { defineMethod, withControl } from '../method.js';
import { roleSchema, tierSchema } from '../records.js';
import { boundedList, boundedText, limits } from '../limits.js';
import { sentBuildArtifactSchema, sentDecisionSchema, sentVerificationReportSchema, workItemSchema, workKindSchema, workStatusSchema } from '../work.js';
import { handoffArtifactSchema } from '../work-artifact-record.js';
import { guidancePacketSchema, sentBuildPlanSchema, sentClarificationAnswerSchema, sentClarificationAskSchema, workBudgetsSchema, workSettingsSchema } from '../work-protocol.js';
import { grantedClaimSchema, idParam, patternParam, repositoryParams } from './common.js';
import { pageParams, pageResult } from './paging.js';

const itemRef = z.object({ id: z.string(), status: workStatusSchema });

export const workAdd = defineMethod({
  name: 'fleet_work_add',
  summary:
    'Add a work item to the queue: a telos, epic, story or task (default), under a parent one level up, with dependencies, the paths it will touch (claimed for whoever pulls it), acceptance criteria, the role, tier and budgets it needs.',
  params: z.strictObject({
    title: boundedText(limits.reason).min(1),
    kind: workKindSchema.optional(),
    parent: idParam.optional(),
    dependsOn: boundedList(idParam, limits.refs).optional(),
    paths: boundedList(patternParam, limits.patterns).optional(),
    criteria: boundedList(boundedText(limits.paragraph).min(1), limits.entries).optional(),
    role: roleSchema.optional(),
    tier: tierSchema.optional(),
    budgets: workBudgetsSchema.partial().optional(),
    ...repositoryParams,
  }),
  result: withControl({ item: itemRef }),
  access: 'anyone',
  mutates: true,
  mcpTool: true,
});

export const workPull = defineMethod({
  name: 'fleet_work_pull',
  summary:
    'Take the next ready work item you can do, its paths claimed for you. item null: nothing fits; refusedBy "control": start nothing new. Verifiers get the next item in review. guidance.version grows when the rules change.',
  params: z.strictObject({}),
  result: withControl({
    item: workItemSchema.nullable(),
    claims: z.array(grantedClaimSchema),
    refusedBy: z.literal('control').optional(),
    guidance: guidancePacketSchema.optional(),
  }),
  access: 'agent',
  mutates: true,
  mcpTool: true,
});

export const workUpdate = defineMethod({
  name: 'fleet_work_update',
  summary:
    'Move an item along. Its builder: plan, complete → review. A verifier, never the builder: verify (evidence per criterion) → verified (rework on a fail). RTE or operator: decide (accept only verified), refs: the artifactIds it rests on. clarify (context, confidence) blocks it until answered. Too many rounds escalate to the operator.',
  params: z.discriminatedUnion('action', [
    z.strictObject({ id: idParam, action: z.literal('complete'), artifact: sentBuildArtifactSchema }),
    z.strictObject({ id: idParam, action: z.literal('verify'), report: sentVerificationReportSchema }),
    z.strictObject({ id: idParam, action: z.literal('decide'), decision: sentDecisionSchema }),
    z.strictObject({ id: idParam, action: z.literal('plan'), plan: sentBuildPlanSchema }),
    z.strictObject({ id: idParam, action: z.literal('clarify'), ...sentClarificationAskSchema.shape }),
    z.strictObject({ id: idParam, action: z.literal('answer'), ...sentClarificationAnswerSchema.shape }),
  ]),
  result: withControl({ item: itemRef, clarificationId: z.string().optional(), /** complete: what the builder should know (nothing committed to land). */ warning: z.string().optional() }),
  access: 'anyone',
  mutates: true,
  mcpTool: true,
});

export const workRemove = defineMethod({
  name: 'fleet_work_remove',
  summary:
    "Take finished work items (done or rolled back) out of the queue, all or nothing, so it lists only what matters (fleet demo removes its own items this way). Operator or RTE. Refused for an item still open, or one that an item staying in the queue depends on or has as its parent. The event log keeps their history.",
  params: z.strictObject({ ids: boundedList(idParam, limits.entries).min(1) }),
  result: withControl({ removed: z.array(z.string()) }),
  access: 'anyone',
  mutates: true,
  mcpTool: false,
});

export const workList = defineMethod({
  name: 'fleet_work_list',
  summary: 'List work items, optionally only those with one status, or only the one with id.',
  params: z.strictObject({ status: workStatusSchema.optional(), id: idParam.optional(), ...pageParams }),
  result: withControl({ items: z.array(workItemSchema), ...pageResult(['items']) }),
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});

export const workConfigure = defineMethod({
  name: 'fleet_work_configure',
  summary:
    "Set the work protocol (operator or RTE): rework and clarification rounds before an item escalates to the operator (default 3 each), and whether a plan is required before completion. With id, sets that item's budgets only.",
  params: z.strictObject({
    id: idParam.optional(),
    ...workBudgetsSchema.partial().shape,
    planRequired: z.boolean().optional(),
  }),
  result: withControl({ settings: workSettingsSchema, item: z.object({ id: z.string(), budgets: workBudgetsSchema }).optional() }),
  access: 'rte_or_operator',
  mutates: true,
  mcpTool: false,
});

export const workArtifact = defineMethod({
  name: 'fleet_work_artifact',
  summary:
    'Read one handoff artifact by its id (guidance packet, plan, build artifact, verification request or report, clarification request or response, decision): its content, who produced it in which role and when, what it rests on, and its fingerprint.',
  params: z.strictObject({ id: idParam }),
  result: withControl({ artifact: handoffArtifactSchema }),
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});
