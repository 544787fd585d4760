import { z } from 'zod';

/**
 * Fields reserved on every envelope (handoffs, messages) so that signing and provenance can be
 * added later without a schema break: an id, a content fingerprint, and a trust annotation.
 */
export const envelopeMetaShape = {
  id: z.string().optional(),
  fingerprint: z.string().optional().describe('Hash of the canonical envelope content, e.g. sha256:<hex>'),
  trust: z.enum(['local', 'verified', 'untrusted']).optional(),
};
