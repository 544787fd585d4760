import { z } from 'zod';
import { envelopeMeta } from './envelope.js';
import { limits, sentSizes, storedSizes, type Sizing } from './limits.js';
import { roleSchema, tierSchema } from './records.js';
import { artifactRecordShape } from './work-artifact.js';
import { buildPlanSchema, clarificationRequestSchema, clarificationRoundSchema, verificationRequestSchema, workBudgetsSchema } from './work-protocol.js';

export const workKindSchema = z.enum(['telos', 'epic', 'story', 'task']);
export type WorkKind = z.infer<typeof workKindSchema>;

/**
 * `landing`, `landed` and `land_failed` follow `done` for work built on a branch of its own: queued
 * on the train, merged on the target (with the commit), or refused for a reason no rework fixes.
 */
export const workStatusSchema = z.enum(['ready', 'in_progress', 'review', 'verified', 'done', 'rework', 'blocked', 'rolled_back', 'escalated', 'landing', 'landed', 'land_failed']);
export type WorkStatus = z.infer<typeof workStatusSchema>;

/** Accepted work: a dependency on it is met, whether or not its branch has landed yet. */
export const ACCEPTED_STATUSES: ReadonlySet<WorkStatus> = new Set(['done', 'landing', 'landed', 'land_failed']);

/** Work that is over: it may leave the queue. */
export const FINISHED_STATUSES: ReadonlySet<WorkStatus> = new Set(['done', 'rolled_back', 'landed', 'land_failed']);

/** The builder's completion claim: what it touched, what it ran, which criteria it says it covered. */
function artifactShape(size: Sizing) {
  return {
    ...envelopeMeta(size),
    touchedFiles: size.list(size.text(limits.path), limits.files),
    commands: size.list(
      z.object({ command: size.text(limits.command).min(1), exitCode: z.number().int(), evidence: size.text(limits.summary).optional() }),
      limits.commands,
    ),
    criteria: size.list(size.text(limits.paragraph), limits.entries),
    summary: size.text(limits.summary).optional(),
  };
}
/** One file changed since the item's start commit, as git counts it. */
export const diffStatSchema = z.object({
  path: z.string(),
  /** Lines added and removed; absent for a binary file and for an untracked one. */
  added: z.number().int().optional(),
  removed: z.number().int().optional(),
  /** A new file not yet added to git. */
  untracked: z.boolean().optional(),
});

/** What git says changed in the builder's worktree since the item's start commit. */
export const diffSummarySchema = z.object({
  since: z.string(),
  files: z.array(diffStatSchema),
  /** How many more files changed than are listed. */
  more: z.number().int(),
});
export type DiffSummary = z.infer<typeof diffSummarySchema>;

export const buildArtifactSchema = z.object(artifactShape(storedSizes)).extend({
  ...artifactRecordShape,
  diffSummary: diffSummarySchema
    .optional()
    .describe('The diff summary (seed: actual touched files and diff summary): what git says changed in the builder\'s worktree since the start commit, committed or not, read by the plane at completion; touchedFiles is the builder\'s claim.'),
});
export type BuildArtifact = z.infer<typeof buildArtifactSchema>;
export const sentBuildArtifactSchema = z.object(artifactShape(sentSizes));

export const verdictSchema = z.enum(['pass', 'fail', 'inconclusive']);

/** A verifier's independent judgement, one verdict per criterion with its evidence. */
function reportShape(size: Sizing) {
  return {
    ...envelopeMeta(size),
    verdicts: size
      .list(z.object({ criterion: size.text(limits.paragraph).min(1), verdict: verdictSchema, evidence: size.text(limits.summary).min(1) }), limits.entries)
      .min(1),
    doubts: size.list(size.text(limits.paragraph), limits.entries).optional(),
  };
}
export const verificationReportSchema = z.object(reportShape(storedSizes)).extend(artifactRecordShape);
export type VerificationReport = z.infer<typeof verificationReportSchema>;
export const sentVerificationReportSchema = z.object(reportShape(sentSizes));

export const dispositionSchema = z.enum(['accept', 'rework', 'rollback', 'escalate']);

/** The RTE's or operator's decision, with a reason code and the artifacts it rests on. */
function decisionShape(size: Sizing) {
  return {
    ...envelopeMeta(size),
    disposition: dispositionSchema,
    reasonCode: size.text(limits.line).min(1, 'a decision needs a reasonCode saying why'),
    /** The artifacts it rests on (an RTE's must exist: at least the report for accept); the operator may cite commits. */
    refs: size.list(size.text(limits.id), limits.refs).default([]),
    note: size.text(limits.summary).optional(),
    /** For a rollback: the commit to return to; the plane fills in the one the item started from. */
    rollbackRef: size.text(limits.id).min(1).optional(),
  };
}
export const decisionSchema = z.object(decisionShape(storedSizes)).extend({
  ...artifactRecordShape,
  statusMutation: z
    .object({ from: workStatusSchema, to: workStatusSchema })
    .optional()
    .describe('The status change the decision applied (seed: status mutation, if applied); absent while the train still has to apply it (a landed item\'s revert).'),
  remediation: z.string().optional().describe('For a rollback the plane does not apply itself: how to return the files to the rollback reference (seed invariant 4).'),
});
export type Decision = z.infer<typeof decisionSchema>;
export const sentDecisionSchema = z.object(decisionShape(sentSizes));

/**
 * Why an item waits for the operator: a spent budget. A question past the clarification budget is
 * carried here, so the operator sees what was asked and can answer it; `waitedIn` is the status the
 * item returns to when it is answered.
 */
export const escalationSchema = z.object({
  budget: z.enum(['rework', 'clarification']),
  spent: z.number().int(),
  limit: z.number().int(),
  by: z.string(),
  waitedIn: workStatusSchema.optional(),
  question: clarificationRequestSchema.optional(),
});
export type Escalation = z.infer<typeof escalationSchema>;

/** Where an item's work waits to land: its branch pinned at a commit, the target, the paths it changed. */
export const workIntegrationSchema = z.object({
  branch: z.string(),
  commit: z.string(),
  target: z.string(),
  /** The repository's git directory on the plane's machine (where the train fetches the branch from). */
  repository: z.string(),
  /** The paths changed merge-base..commit plus uncommitted ones at completion; absent when too many to list. */
  writeSet: z.array(z.string()).optional(),
  /** The merge-base of the branch and the target at completion: a commit equal to it means nothing was committed to land. */
  base: z.string().optional(),
});
export type WorkIntegration = z.infer<typeof workIntegrationSchema>;

export const workItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  kind: workKindSchema,
  parent: z.string().optional(),
  dependsOn: z.array(z.string()),
  paths: z.array(z.string()),
  criteria: z.array(z.string()),
  role: roleSchema.optional(),
  tier: tierSchema.optional(),
  scope: z.string().optional(),
  status: workStatusSchema,
  assignee: z.string().optional(),
  verifier: z.string().optional(),
  blockedBy: z.array(z.string()),
  artifact: buildArtifactSchema.optional(),
  report: verificationReportSchema.optional(),
  decision: decisionSchema.optional(),
  decidedBy: z.string().optional(),
  statusReason: z.string().optional(),
  /** This item's own budgets, where they differ from the fleet's. */
  budgets: workBudgetsSchema.partial().optional(),
  plan: buildPlanSchema.optional(),
  verificationRequest: verificationRequestSchema.optional(),
  clarifications: z.array(clarificationRoundSchema).default([]),
  /** Rework rounds spent so far. */
  reworkRounds: z.number().int().default(0),
  /** The commit its builder's worktree was at when the item was pulled: the rollback reference. */
  startCommit: z.string().optional(),
  /** Set while it waits for the operator because a budget is spent. */
  escalation: escalationSchema.optional(),
  /** Its builder's branch as completed, when it was built on a branch of its own: what the train lands. */
  integration: workIntegrationSchema.optional(),
  /** The commit on the target that landed it (the train's merge commit, or the merge the plane saw). */
  landedCommit: z.string().optional(),
  /**
   * Set when its branch of several commits landed rebased onto the target outside the train (seen by
   * patch id): the target commit they were put on top of, so the landing is `landedOnto..landedCommit`.
   */
  landedOnto: z.string().optional(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type WorkItem = z.infer<typeof workItemSchema>;

/** What an item landed as, in full commit ids: its commit, or for a rebase of several commits the range `landedOnto..landedCommit`. */
export function landedAs(item: Pick<WorkItem, 'landedCommit' | 'landedOnto'>): string | undefined {
  if (item.landedCommit === undefined) return undefined;
  return item.landedOnto !== undefined ? `${item.landedOnto}..${item.landedCommit}` : item.landedCommit;
}
