import { z } from 'zod';
import { defineMethod, withControl } from '../method.js';
import { roleSchema, tierSchema } from '../records.js';
import { boundedList, boundedText, limits } from '../limits.js';
import { sentBuildArtifactSchema, sentDecisionSchema, sentVerificationReportSchema, workItemSchema, workKindSchema, workStatusSchema } from '../work.js';
import { grantedClaimSchema, idParam, patternParam, repositoryParams } from './common.js';
import { pageParams, pageResult } from './paging.js';

const itemRef = z.object({ id: z.string(), status: workStatusSchema });

export const workAdd = defineMethod({
  name: 'fleet_work_add',
  summary:
    'Add a work item to the queue: a telos, epic, story or task (default), under a parent one level up, with dependencies, the paths it will touch (claimed for whoever pulls it), acceptance criteria, and the role and tier it needs.',
  params: z.strictObject({
    title: boundedText(limits.reason).min(1),
    kind: workKindSchema.optional(),
    parent: idParam.optional(),
    dependsOn: boundedList(idParam, limits.refs).optional(),
    paths: boundedList(patternParam, limits.patterns).optional(),
    criteria: boundedList(boundedText(limits.paragraph).min(1), limits.entries).optional(),
    role: roleSchema.optional(),
    tier: tierSchema.optional(),
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
    'Take the next ready work item you can do — its dependencies done, its role and tier yours, its paths free — and get its paths claimed for you in the same step. Returns item null when nothing fits (or refusedBy "control" when the fleet is paused, draining or stopped: then start nothing new). Verifiers get the next item awaiting review.',
  params: z.strictObject({}),
  result: withControl({
    item: workItemSchema.nullable(),
    claims: z.array(grantedClaimSchema),
    refusedBy: z.literal('control').optional(),
  }),
  access: 'agent',
  mutates: true,
  mcpTool: true,
});

export const workUpdate = defineMethod({
  name: 'fleet_work_update',
  summary:
    'Move a work item along its lifecycle. complete (its builder): with artifact {touchedFiles, commands [{command, exitCode}], criteria} → review, and its claims are released. verify (a verifier, not the builder): with report {verdicts [{criterion, verdict pass|fail|inconclusive, evidence}]} → verified when every criterion passes, rework on any fail. decide (RTE or operator): with decision {disposition accept|rework|rollback|escalate, reasonCode, refs} — accept only after a passing verification → done.',
  params: z.discriminatedUnion('action', [
    z.strictObject({ id: idParam, action: z.literal('complete'), artifact: sentBuildArtifactSchema }),
    z.strictObject({ id: idParam, action: z.literal('verify'), report: sentVerificationReportSchema }),
    z.strictObject({ id: idParam, action: z.literal('decide'), decision: sentDecisionSchema }),
  ]),
  result: withControl({ item: itemRef }),
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
  summary: 'List work items, optionally only those with one status.',
  params: z.strictObject({ status: workStatusSchema.optional(), ...pageParams }),
  result: withControl({ items: z.array(workItemSchema), ...pageResult(['items']) }),
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});
