import { z } from 'zod';
import { limits, type Sizing } from './limits.js';

/**
 * Fields reserved on every envelope (handoffs, messages) so that signing and provenance can be
 * added later without a schema break: an id, a content fingerprint, and a trust annotation.
 */
export function envelopeMeta(size: Sizing) {
  return {
    id: size.text(limits.id).optional(),
    fingerprint: size.text(limits.line).optional().describe('Hash of the canonical envelope content, e.g. sha256:<hex>'),
    trust: z.enum(['local', 'verified', 'untrusted']).optional(),
  };
}
