import { createHash } from 'node:crypto';

/**
 * What the plane keeps of a runtime's session id: a digest. Events reach every plane-token and
 * service-token reader; a raw session id read there would let a caller speak as that session
 * in the hooks' methods.
 */
export function sessionKey(sessionId: string): string {
  return `sha256:${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}`;
}
