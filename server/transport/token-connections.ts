import type { Duplex } from 'node:stream';
import type { ServiceCredential } from '../core/context.js';
import { MAX_CONNECTIONS } from './admission.js';

/**
 * Established connections the TLS listener holds for all remote agents together. Its WebSocket
 * connections count against the endpoint's one cap (MAX_CONNECTIONS) beside the local ones: the
 * listener keeps to half of it, so whatever arrives from the network, this machine's hooks, CLI
 * and editor always find room.
 */
export const MAX_REMOTE_CONNECTIONS = MAX_CONNECTIONS / 2;

/**
 * Established connections (WebSocket or HTTP to /mcp) of one service token. A remote agent needs a
 * few (its MCP client, a CLI call, a hook); a runner that loops without closing them would
 * otherwise take every slot of the listener, and with them the local clients'.
 */
export const MAX_CONNECTIONS_PER_TOKEN = 32;

/**
 * Counts the listener's authenticated connections per service token and refuses one past either
 * cap. A connection is counted once, under the token that first proved itself on it, until it closes.
 */
export class TokenConnections {
  private readonly perToken = new Map<string, number>();
  private readonly counted = new WeakSet<Duplex>();
  private total = 0;

  /** Takes a slot for `socket` (the TCP socket under the TLS one); returns why not when none is left. */
  take(socket: Duplex, credential: ServiceCredential): string | undefined {
    if (this.counted.has(socket)) return undefined;
    const held = this.perToken.get(credential.tokenId) ?? 0;
    if (held >= MAX_CONNECTIONS_PER_TOKEN) {
      return `service token ${credential.tokenId} (${credential.callsign}) already holds ${MAX_CONNECTIONS_PER_TOKEN} connections, the limit per token: close the ones it no longer needs (each MCP client, CLI call and hook holds one) and retry`;
    }
    if (this.total >= MAX_REMOTE_CONNECTIONS) {
      return `the listener already serves ${MAX_REMOTE_CONNECTIONS} remote connections, its limit: retry later`;
    }
    this.counted.add(socket);
    this.perToken.set(credential.tokenId, held + 1);
    this.total++;
    socket.once('close', () => {
      this.total--;
      const left = this.perToken.get(credential.tokenId)! - 1;
      if (left === 0) this.perToken.delete(credential.tokenId);
      else this.perToken.set(credential.tokenId, left);
    });
    return undefined;
  }
}
