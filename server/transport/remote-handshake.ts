import type { IncomingMessage } from 'node:http';
import type { ServiceCredential } from '../core/context.js';
import { bearerOf, type HandshakeRefusal } from './handshake.js';

/** Checks a presented service token: the credential it proves, or why it proves none. */
export type Authenticate = (bearer: string) => ServiceCredential | { refused: string };

/**
 * Decides a request on the TLS listener (a WebSocket upgrade or an MCP call) before anything else
 * runs: any Host is fine (it is reached by name from other machines), a browser's Origin is not,
 * and the bearer must be a live service token. The plane token and the operator credential are
 * never accepted here: they are this machine's, and the operator is never remote.
 */
export function refuseRemoteRequest(request: IncomingMessage, authenticate: Authenticate): HandshakeRefusal | { credential: ServiceCredential } {
  if (request.headers.origin !== undefined) {
    return { status: 403, reason: `Origin "${request.headers.origin}" refused: browsers and web pages may not reach the plane` };
  }
  const presented = bearerOf(request);
  if (presented === undefined) return { status: 401, reason: 'missing "Authorization: Bearer <service token>": the operator creates one per agent with `fleet token create --callsign X --role R`' };
  const outcome = authenticate(presented);
  if ('refused' in outcome) return { status: 401, reason: outcome.refused };
  return { credential: outcome };
}
