import { z } from 'zod';
import { envelopeMetaShape } from './envelope.js';
import { roleSchema, tierSchema } from './records.js';

export const workKindSchema = z.enum(['telos', 'epic', 'story', 'task']);
export type WorkKind = z.infer<typeof workKindSchema>;

export const workStatusSchema = z.enum(['ready', 'in_progress', 'review', 'verified', 'done', 'rework', 'blocked', 'rolled_back', 'escalated']);
export type WorkStatus = z.infer<typeof workStatusSchema>;

/** The builder's completion claim: what it touched, what it ran, which criteria it says it covered. */
export const buildArtifactSchema = z.object({
  ...envelopeMetaShape,
  touchedFiles: z.array(z.string()).max(10_000),
  commands: z.array(z.object({ command: z.string().min(1), exitCode: z.number().int(), evidence: z.string().max(2000).optional() })).max(1000),
  criteria: z.array(z.string()).max(200),
  summary: z.string().max(5000).optional(),
});
export type BuildArtifact = z.infer<typeof buildArtifactSchema>;

export const verdictSchema = z.enum(['pass', 'fail', 'inconclusive']);

/** A verifier's independent judgement, one verdict per criterion with its evidence. */
export const verificationReportSchema = z.object({
  ...envelopeMetaShape,
  verdicts: z.array(z.object({ criterion: z.string().min(1), verdict: verdictSchema, evidence: z.string().min(1).max(5000) })).min(1).max(200),
  doubts: z.array(z.string()).max(50).optional(),
});
export type VerificationReport = z.infer<typeof verificationReportSchema>;

export const dispositionSchema = z.enum(['accept', 'rework', 'rollback', 'escalate']);

/** The RTE's or operator's decision, with a reason code and the artifacts it rests on. */
export const decisionSchema = z.object({
  ...envelopeMetaShape,
  disposition: dispositionSchema,
  reasonCode: z.string().min(1, 'a decision needs a reasonCode saying why').max(200),
  refs: z.array(z.string()).max(100).default([]),
  note: z.string().max(5000).optional(),
});
export type Decision = z.infer<typeof decisionSchema>;

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
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type WorkItem = z.infer<typeof workItemSchema>;
