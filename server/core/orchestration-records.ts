import { z } from 'zod';
import {
  buildArtifactSchema,
  buildRunStatusSchema,
  decisionSchema,
  handoffEnvelopeSchema,
  messageStatusSchema,
  messageTypeSchema,
  prioritySchema,
  recipientSchema,
  roleSchema,
  tierSchema,
  verificationReportSchema,
  workKindSchema,
  workStatusSchema,
} from '../../contracts/index.js';

/** Persisted records of the orchestration layer (handoffs, messages, work, builds); times in epoch ms. */
export const handoffRecordSchema = z.object({
  id: z.string(),
  envelope: handoffEnvelopeSchema,
  fromAgentId: z.string(),
  status: z.enum(['pending', 'accepted', 'declined', 'expired']),
  acceptedBy: z.string().optional(),
  reason: z.string().optional(),
  sentAt: z.number(),
  expiresAt: z.number(),
  resolvedAt: z.number().optional(),
});
export type HandoffRecord = z.infer<typeof handoffRecordSchema>;

export const messageRecordSchema = z.object({
  id: z.string(),
  from: z.string(),
  to: recipientSchema,
  type: messageTypeSchema,
  priority: prioritySchema,
  subject: z.string().optional(),
  body: z.string(),
  refs: z.array(z.string()),
  workItem: z.string().optional(),
  mentions: z.array(z.string()),
  status: messageStatusSchema,
  sentAt: z.number(),
  updatedAt: z.number(),
});
export type MessageRecord = z.infer<typeof messageRecordSchema>;

export const workRecordSchema = z.object({
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
  /** agentIds */
  assignee: z.string().optional(),
  verifier: z.string().optional(),
  blockedBy: z.array(z.string()),
  artifact: buildArtifactSchema.optional(),
  report: verificationReportSchema.optional(),
  decision: decisionSchema.optional(),
  statusReason: z.string().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type WorkRecord = z.infer<typeof workRecordSchema>;

export const buildConfigRecordSchema = z.object({ scope: z.string(), command: z.string(), worktree: z.string(), timeoutSeconds: z.number(), configuredBy: z.string() });
export type BuildConfigRecord = z.infer<typeof buildConfigRecordSchema>;

export const buildRunRecordSchema = z.object({
  id: z.string(),
  scope: z.string(),
  status: buildRunStatusSchema,
  requestedBy: z.string(),
  command: z.string(),
  commit: z.string().optional(),
  exitCode: z.number().int().nullable().optional(),
  durationMs: z.number().optional(),
  logTail: z.string().optional(),
  timedOut: z.boolean().optional(),
  requestedAt: z.number(),
  finishedAt: z.number().optional(),
});
export type BuildRunRecord = z.infer<typeof buildRunRecordSchema>;

/** How many finished build runs to keep in state (the log keeps all of them). */
export const MAX_KEPT_BUILD_RUNS = 50;
