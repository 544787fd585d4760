import { z } from 'zod';
import { buildConfigSchema, buildRunSchema, handoffSchema, messageSchema, workItemSchema } from '../../contracts/index.js';

/**
 * Persisted records of the orchestration layer: the contract shapes with epoch-ms times (and, for
 * work, agent ids where the public view shows callsigns).
 */
export const handoffRecordSchema = handoffSchema.extend({
  fromAgentId: z.string(),
  sentAt: z.number(),
  expiresAt: z.number(),
  resolvedAt: z.number().optional(),
});
export type HandoffRecord = z.infer<typeof handoffRecordSchema>;

export const messageRecordSchema = messageSchema.omit({ fingerprint: true, trust: true }).extend({ sentAt: z.number(), updatedAt: z.number() });
export type MessageRecord = z.infer<typeof messageRecordSchema>;

/** `assignee` and `verifier` hold agent ids here. */
export const workRecordSchema = workItemSchema.extend({ createdAt: z.number(), updatedAt: z.number() });
export type WorkRecord = z.infer<typeof workRecordSchema>;

export const buildConfigRecordSchema = buildConfigSchema;
export type BuildConfigRecord = z.infer<typeof buildConfigRecordSchema>;

export const buildRunRecordSchema = buildRunSchema.extend({ requestedAt: z.number(), finishedAt: z.number().optional() });
export type BuildRunRecord = z.infer<typeof buildRunRecordSchema>;

/** The guidance last seen for a worktree: its version grows when the policy hash changes. */
export const guidanceRecordSchema = z.object({ worktree: z.string(), version: z.number().int().positive(), policyHash: z.string() });
export type GuidanceRecord = z.infer<typeof guidanceRecordSchema>;

/** How many guidance packets to keep readable by id in state (the log keeps all of them). */
export const MAX_KEPT_GUIDANCE_PACKETS = 500;

/** How many finished build runs to keep in state (the log keeps all of them). */
export const MAX_KEPT_BUILD_RUNS = 50;
