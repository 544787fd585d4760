import { z } from 'zod';
import { envelopeMetaShape } from './envelope.js';
import { recipientSchema } from './messages.js';
import { callsignSchema } from './records.js';

export const handoffArtifactSchema = z.object({
  kind: z.enum(['build', 'verification', 'decision', 'patch', 'note', 'plan']),
  ref: z.string().optional(),
  data: z.unknown().optional(),
});

/**
 * What one agent hands another: the context to continue without re-discovering it, and the
 * claims that move along (held in escrow until the recipient accepts, returned on decline/expiry).
 */
export const handoffEnvelopeSchema = z.object({
  ...envelopeMetaShape,
  from: callsignSchema,
  to: recipientSchema,
  summary: z.string().min(1).max(2000),
  context: z.string().max(20000).optional(),
  filesTouched: z.array(z.string()).max(10_000).default([]),
  claims: z.array(z.string()).max(256).default([]).describe('Claim ids to transfer to the recipient on acceptance'),
  nextSteps: z.array(z.string()).max(200).default([]),
  openQuestions: z.array(z.string()).max(200).default([]),
  artifacts: z.array(handoffArtifactSchema).max(100).default([]),
  refs: z.array(z.string()).max(100).default([]).describe('Ids of earlier handoffs and messages this one builds on'),
  workItem: z.string().optional().describe('A work item whose assignment moves with the handoff'),
});
export type HandoffEnvelope = z.infer<typeof handoffEnvelopeSchema>;

export const handoffStatusSchema = z.enum(['pending', 'accepted', 'declined', 'expired']);

export const handoffSchema = z.object({
  id: z.string(),
  envelope: handoffEnvelopeSchema,
  status: handoffStatusSchema,
  acceptedBy: z.string().optional(),
  reason: z.string().optional(),
  sentAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  resolvedAt: z.iso.datetime().optional(),
});
export type Handoff = z.infer<typeof handoffSchema>;
