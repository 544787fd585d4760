import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Credential } from '../core/context.js';

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

export interface HandshakeRefusal {
  status: 401 | 403;
  reason: string;
}

/** The secrets a bearer may present: FLEET_HOME/token (agents, hooks, the bridge) and FLEET_HOME/operator-token (the person's tools). */
export interface PlaneSecrets {
  plane: string;
  operator: string;
}

/**
 * Decides an upgrade before the WebSocket handshake. Browsers always send Origin, local agents
 * never do, so any Origin (a web page, or `null` from a sandboxed one) is refused; a Host that is
 * not loopback means DNS rebinding; the bearer must be one of the plane's secrets, compared in
 * constant time. Returns the refusal, or which credential the bearer matched.
 */
export function refuseUpgrade(request: IncomingMessage, secrets: PlaneSecrets): HandshakeRefusal | { credential: Credential } {
  const host = request.headers.host;
  if (!host || !LOOPBACK_HOST.test(host)) return { status: 403, reason: `Host "${host ?? ''}" is not loopback: the plane serves 127.0.0.1 only` };
  if (request.headers.origin !== undefined) {
    return { status: 403, reason: `Origin "${request.headers.origin}" refused: browsers and web pages may not reach the plane` };
  }
  const presented = bearerOf(request);
  if (presented === undefined) return { status: 401, reason: 'missing "Authorization: Bearer <token>": read the token from FLEET_HOME/token' };
  // Both comparisons always run, so the timing says nothing about which secret came close.
  const operator = sameSecret(presented, secrets.operator);
  const plane = sameSecret(presented, secrets.plane);
  if (operator) return { credential: 'operator' };
  if (plane) return { credential: 'plane' };
  return { status: 401, reason: 'wrong plane token: it changes at every plane start, read FLEET_HOME/token again' };
}

/** The token of an `Authorization: Bearer` header, if the request has one (the scheme is case-insensitive, RFC 9110 §11.1). */
export function bearerOf(request: IncomingMessage): string | undefined {
  return /^bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
}

/** Hashing first gives equal-length buffers, so the comparison leaks neither content nor length. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
