import { z } from 'zod';

/** When an item's claims end for work built on a branch of its own: at `complete` (as in a shared checkout), or once it lands. */
export const releaseAtSchema = z.enum(['complete', 'landed']);
export type ReleaseAt = z.infer<typeof releaseAtSchema>;

/**
 * A repository's integration settings (DESIGN §14, §16): the target branch the train lands on
 * (default: the repository's default branch), an optional remote it builds on and pushes to (never
 * forced), how many items one build verifies, the build command (default: the build gate's), whether
 * every accept queues the item, and when claims end.
 */
export const integrationConfigSchema = z.object({
  scope: z.string(),
  target: z.string().optional(),
  remote: z.string().optional(),
  push: z.boolean(),
  batchSize: z.number().int().positive(),
  buildCommand: z.string().optional(),
  timeoutSeconds: z.number().positive().optional(),
  landOnAccept: z.boolean(),
  releaseAt: releaseAtSchema,
  configuredBy: z.string(),
});
export type IntegrationConfig = z.infer<typeof integrationConfigSchema>;

export const DEFAULT_INTEGRATION = { push: false, batchSize: 4, landOnAccept: false, releaseAt: 'landed' } as const;

/** An item on the train: queued at a pinned commit, then in a build, then out (landed or sent back). */
export const trainEntryStatusSchema = z.enum(['queued', 'building', 'landed', 'returned', 'failed']);

export const trainEntrySchema = z.object({
  itemId: z.string(),
  scope: z.string(),
  branch: z.string(),
  commit: z.string(),
  target: z.string(),
  /** The repository's git directory on the integrating plane's machine. */
  repository: z.string(),
  status: trainEntryStatusSchema,
  queuedBy: z.string(),
  queuedAt: z.iso.datetime(),
  /** Set for a rollback: the landed commit this entry reverts (one revert commit, through the train's build). */
  revert: z.string().optional(),
  /**
   * With `revert`, for a landing that brought the item's own commits onto the target (a fast-forward
   * or rebase: its branch head is the landed commit): where its work began, so the revert undoes all
   * of `revertFrom..revert`, not only the last commit.
   */
  revertFrom: z.string().optional(),
  /** The merge commit on the target, once landed (for a rollback, the revert commit). */
  landedCommit: z.string().optional(),
  /** Why it left the train without landing (conflict, RED build, moved branch, target checked out). */
  reason: z.string().optional(),
  /** The build's log tail for the batch it was last in. */
  logTail: z.string().optional(),
});
export type TrainEntry = z.infer<typeof trainEntrySchema>;
