import { z } from 'zod';
import { envelopeMeta } from './envelope.js';
import { boundedText, limits, sentSizes, storedSizes, type Sizing } from './limits.js';
import { artifactRecordShape } from './work-artifact.js';

/**
 * The artifacts of the builder → verifier → decision protocol beyond the completion claim, report
 * and decision (work.ts): the guidance an agent works under, the builder's plan, what the verifier
 * is asked to check, clarification rounds, and the budgets that end a loop in escalation.
 */

/** How many rework and clarification rounds an item gets before it escalates to the operator. */
export const DEFAULT_WORK_BUDGETS = { reworkRounds: 3, clarificationRounds: 3 } as const;

const rounds = z.number().int().min(0).max(100);
export const workBudgetsSchema = z.object({ reworkRounds: rounds, clarificationRounds: rounds });
export type WorkBudgets = z.infer<typeof workBudgetsSchema>;

/** The fleet's settings of the protocol (fleet_work_configure). */
export const workSettingsSchema = workBudgetsSchema.extend({
  /** Whether a builder must submit a plan (action plan) before it may complete. */
  planRequired: z.boolean(),
});
export type WorkSettings = z.infer<typeof workSettingsSchema>;
export const DEFAULT_WORK_SETTINGS: WorkSettings = { ...DEFAULT_WORK_BUDGETS, planRequired: false };

/** The builder's plan: what it will touch, how it will check, which step covers which criterion. */
function planShape(size: Sizing) {
  return {
    ...envelopeMeta(size),
    intendedFiles: size.list(size.text(limits.path).min(1), limits.files),
    validationPlan: size.list(size.text(limits.command).min(1), limits.commands).min(1, 'a plan says how the work will be checked: give at least one validation step'),
    /** The coverage map: every criterion of the item, each with how it will be shown met. */
    coverage: z.record(size.text(limits.paragraph).min(1), size.text(limits.summary).min(1)),
    /** The budget envelope: the minutes the builder expects to spend. */
    budgetMinutes: z.number().int().min(1).optional(),
  };
}
export const buildPlanSchema = z.object(planShape(storedSizes)).extend({
  ...artifactRecordShape,
  budgets: workBudgetsSchema
    .optional()
    .describe('The budget envelope the plan runs under (seed: budget envelope): the rework and clarification rounds the item has, which the plane fills in; budgetMinutes is the builder\'s own estimate.'),
});
export type BuildPlan = z.infer<typeof buildPlanSchema>;
export const sentBuildPlanSchema = z.object(planShape(sentSizes));

/** What the verifier is handed when an item enters review: the criteria and the evidence expected for each. */
export const verificationRequestSchema = z.object({
  ...envelopeMeta(storedSizes),
  ...artifactRecordShape,
  round: z.number().int().positive(),
  criteria: z.array(z.string()),
  expectedEvidence: z.array(z.object({ criterion: z.string(), evidence: z.string() })),
  verifierConstraints: z.array(z.string()).optional().describe('The policy constraints applied to the verifier (seed: policy constraints applied to verifier): its role\'s rules from the guidance.'),
});
export type VerificationRequest = z.infer<typeof verificationRequestSchema>;

const confidences = ['low', 'medium', 'high'] as const;

function clarificationAskShape(size: Sizing) {
  return {
    question: size.text(limits.paragraph).min(1),
    options: size.list(size.text(limits.paragraph).min(1), limits.entries).default([]),
    /** Whom to ask (a callsign); by default the RTE. */
    to: size.text(limits.callsign).min(1).optional(),
    /** The decision context (seed: decision context): what is being decided and what depends on it. */
    context: size.text(limits.summary).min(1).optional(),
    /** The asker's confidence in going on without an answer (seed: confidence level). */
    confidence: z.enum(confidences).optional(),
  };
}

/**
 * A new question must carry its decision context and the asker's confidence (seed 001: a
 * ClarificationRequest must include them); questions stored before that are still read without.
 */
export const sentClarificationAskSchema = z.object({
  ...clarificationAskShape(sentSizes),
  context: boundedText(limits.summary, 'a question carries its decision context: add context (what is being decided and what depends on the answer)').min(1, 'context is empty: say what is being decided and what depends on the answer'),
  confidence: z.enum(confidences, { error: (issue) => (issue.input === undefined ? 'a question carries your confidence in going on without an answer: add confidence (low, medium or high)' : undefined) }),
});

/** A question about an item; its id is the REQUEST message that blocks the item until answered. */
export const clarificationRequestSchema = z.object({
  ...envelopeMeta(storedSizes),
  ...clarificationAskShape(storedSizes),
  ...artifactRecordShape,
  id: z.string(),
  askedBy: z.string(),
  round: z.number().int().positive(),
});
export type ClarificationRequest = z.infer<typeof clarificationRequestSchema>;

function clarificationAnswerShape(size: Sizing) {
  return {
    requestId: size.text(limits.id).min(1),
    chosen: size.text(limits.paragraph).min(1),
    rationale: size.text(limits.summary).min(1, 'an answer says why: give a rationale'),
    updatedConstraints: size.list(size.text(limits.paragraph).min(1), limits.entries).default([]),
  };
}
export const sentClarificationAnswerSchema = z.object(clarificationAnswerShape(sentSizes));

export const clarificationResponseSchema = z.object({ ...envelopeMeta(storedSizes), ...clarificationAnswerShape(storedSizes), ...artifactRecordShape, answeredBy: z.string() });
export type ClarificationResponse = z.infer<typeof clarificationResponseSchema>;

export const clarificationRoundSchema = z.object({ request: clarificationRequestSchema, response: clarificationResponseSchema.optional() });
export type ClarificationRound = z.infer<typeof clarificationRoundSchema>;

/** A covenant file as committed at a worktree's HEAD, named by its git blob hash. */
export const covenantFileSchema = z.object({ path: z.string(), blob: z.string() });
export type CovenantFile = z.infer<typeof covenantFileSchema>;

/**
 * The rules an agent works under, attached to every pull: the repository's AGENTS.md / CLAUDE.md
 * at the worktree's HEAD, its role's constraints and the stop conditions. The version grows
 * whenever the policy hash changes, so an agent sees that the rules changed between two pulls.
 */
export const guidancePacketSchema = z.object({
  ...envelopeMeta(storedSizes),
  ...artifactRecordShape,
  version: z.number().int().positive(),
  policyHash: z.string(),
  worktree: z.string().optional(),
  head: z.string().optional(),
  covenant: z.array(covenantFileSchema),
  roleConstraints: z.array(z.string()),
  stopConditions: z.array(z.string()),
  /** The callsign of the agent whose pull carried it. */
  issuedTo: z.string().optional(),
});
export type GuidancePacket = z.infer<typeof guidancePacketSchema>;
