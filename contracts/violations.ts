import { z } from 'zod';

/** A write seen in territory another agent holds exclusively (DESIGN §11), as the operator reads it. */
export const violationSchema = z.object({
  id: z.string(),
  scope: z.string(),
  path: z.string(),
  /** The writer's callsign, or `unknown`. */
  writer: z.string(),
  holder: z.string(),
  claimId: z.string(),
  fence: z.number().int(),
  /** `watcher`, or the hook that reported it. */
  source: z.string(),
  fingerprint: z.string(),
  at: z.iso.datetime(),
});
export type Violation = z.infer<typeof violationSchema>;

/** Written by someone whose writer could not be told apart (several agents in one worktree, no hook). */
export const UNKNOWN_WRITER = 'unknown';
