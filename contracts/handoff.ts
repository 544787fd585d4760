import { z } from 'zod';
import { envelopeMetaShape } from './envelope.js';
import { callsignSchema, roleSchema } from './records.js';

/** Provisional: the orchestration layer (handoffs, work queue) settles the final shape. */
export const handoffArtifactSchema = z.object({
  kind: z.enum(['build', 'verification', 'decision', 'patch', 'note']),
  ref: z.string().optional(),
  data: z.unknown().optional(),
});

export const handoffEnvelopeSchema = z.object({
  ...envelopeMetaShape,
  from: callsignSchema,
  to: z.union([z.object({ callsign: callsignSchema }), z.object({ role: roleSchema })]),
  summary: z.string().min(1).max(2000),
  context: z.string().max(20000).optional(),
  filesTouched: z.array(z.string()).default([]),
  claims: z.array(z.string()).default([]).describe('Claim ids to transfer to the recipient on acceptance'),
  nextSteps: z.array(z.string()).default([]),
  openQuestions: z.array(z.string()).default([]),
  artifacts: z.array(handoffArtifactSchema).default([]),
  refs: z.array(z.string()).default([]).describe('Ids of earlier handoffs and messages this one builds on'),
});
export type HandoffEnvelope = z.infer<typeof handoffEnvelopeSchema>;
