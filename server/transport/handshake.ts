import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

export interface HandshakeRefusal {
  status: 401 | 403;
  reason: string;
}

/**
 * Decides an upgrade before the WebSocket handshake. Browsers always send Origin, local agents
 * never do, so any Origin (a web page, or `null` from a sandboxed one) is refused; a Host that is
 * not loopback means DNS rebinding; the plane token must match, compared in constant time.
 */
export function refuseUpgrade(request: IncomingMessage, token: string): HandshakeRefusal | undefined {
  const host = request.headers.host;
  if (!host || !LOOPBACK_HOST.test(host)) return { status: 403, reason: `Host "${host ?? ''}" is not loopback: the plane serves 127.0.0.1 only` };
  if (request.headers.origin !== undefined) {
    return { status: 403, reason: `Origin "${request.headers.origin}" refused: browsers and web pages may not reach the plane` };
  }
  const header = request.headers.authorization;
  const presented = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
  if (presented === undefined) return { status: 401, reason: 'missing "Authorization: Bearer <token>": read the token from FLEET_HOME/token' };
  if (!sameSecret(presented, token)) return { status: 401, reason: 'wrong plane token: it changes at every plane start, read FLEET_HOME/token again' };
  return undefined;
}

/** Hashing first gives equal-length buffers, so the comparison leaks neither content nor length. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
