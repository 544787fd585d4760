import { z } from 'zod';
import { envelopeMeta } from './envelope.js';
import { limits, sentSizes, storedSizes, type Sizing } from './limits.js';
import { recipientSchema } from './messages.js';
import { callsignSchema } from './records.js';

function artifactShape(size: Sizing) {
  return {
    kind: z.enum(['build', 'verification', 'decision', 'patch', 'note', 'plan']),
    ref: size.text(limits.paragraph).optional(),
    data: size.json(limits.json).optional(),
  };
}

/**
 * What one agent hands another: the context to continue without re-discovering it, and the
 * claims that move along (held in escrow until the recipient accepts, returned on decline/expiry).
 */
function envelopeShape(size: Sizing) {
  return {
    ...envelopeMeta(size),
    from: callsignSchema,
    to: recipientSchema,
    summary: size.text(limits.summary).min(1),
    context: size.text(limits.body).optional(),
    filesTouched: size.list(size.text(limits.path), limits.files).default([]),
    claims: size.list(size.text(limits.id), limits.ids).default([]).describe('Claim ids to transfer to the recipient on acceptance'),
    nextSteps: size.list(size.text(limits.paragraph), limits.entries).default([]),
    openQuestions: size.list(size.text(limits.paragraph), limits.entries).default([]),
    artifacts: size.list(z.object(artifactShape(size)), limits.entries).default([]),
    refs: size.list(size.text(limits.id), limits.refs).default([]).describe('Ids of earlier handoffs and messages this one builds on'),
    workItem: size.text(limits.id).optional().describe('A work item whose assignment moves with the handoff'),
  };
}

/** A handoff as stored: replayed as recorded. */
export const handoffEnvelopeSchema = z.object(envelopeShape(storedSizes));
export type HandoffEnvelope = z.infer<typeof handoffEnvelopeSchema>;
/** A handoff as a sender may write it (contracts/limits.ts). */
export const sentHandoffEnvelopeSchema = z.object(envelopeShape(sentSizes));

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
