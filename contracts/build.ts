import { z } from 'zod';

export const buildConfigSchema = z.object({
  scope: z.string(),
  command: z.string(),
  worktree: z.string(),
  timeoutSeconds: z.number().positive(),
  configuredBy: z.string(),
});
export type BuildConfig = z.infer<typeof buildConfigSchema>;

export const buildRunStatusSchema = z.enum(['queued', 'running', 'green', 'red']);

/** A build the plane itself ran: the only source of a GREEN status. */
export const buildRunSchema = z.object({
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
  requestedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().optional(),
});
export type BuildRun = z.infer<typeof buildRunSchema>;
