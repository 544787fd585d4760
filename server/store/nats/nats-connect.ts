import { readFile } from 'node:fs/promises';
import { connect, credsAuthenticator, type NatsConnection, type Server, type ServerInfo } from '@nats-io/transport-node';
import type { StartBudget } from './start-budget.js';

/** Start-up could not reach or enter the NATS cluster; the message names what failed and the fix. */
export class NatsStartError extends Error {
  override readonly name = 'NatsStartError';
}

/**
 * A server that hangs (stopped, not dead: its socket stays open and nothing answers) is left for
 * another after this many pings go unanswered at this interval: seconds, not the client's default
 * of minutes, during which the plane would refuse every change while its agents' silence counts
 * against them on the other planes.
 */
const PING_INTERVAL_MS = 2_000;
const MAX_PINGS_OUT = 2;
/** A server that takes the connection but never greets (hung too) is passed over after this. */
const HANDSHAKE_TIMEOUT_MS = 3_000;

/**
 * After a lost connection, dial the server dialed longest ago: the client's own order starts
 * with the server just lost, and a hung one costs a handshake timeout before the next is tried.
 */
const leastRecentlyDialed = (pool: readonly Server[], info: ServerInfo | null): Server | null =>
  info === null || pool.length === 0 ? null : pool.reduce((oldest, server) => (server.lastConnect < oldest.lastConnect ? server : oldest));

/**
 * Connects to the first reachable of `servers` (the client keeps the others for failover and
 * reconnects for ever), waiting within the start-up budget for servers still coming up. Refused
 * credentials fail at once, naming which.
 */
export async function connectNats(servers: readonly string[], credsFile: string | undefined, name: string, budget: StartBudget): Promise<NatsConnection> {
  let authenticator;
  if (credsFile !== undefined) {
    const creds = await readFile(credsFile).catch((error: Error) => {
      throw new NatsStartError(`FLEET_NATS_CREDS=${credsFile} cannot be read (${error.message}): point it at the .creds file of this fleet's NATS user`);
    });
    authenticator = credsAuthenticator(new Uint8Array(creds));
  }
  const options = {
    servers: [...servers],
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    timeout: HANDSHAKE_TIMEOUT_MS,
    pingInterval: PING_INTERVAL_MS,
    maxPingOut: MAX_PINGS_OUT,
    reconnectToServer: leastRecentlyDialed,
    ...(authenticator && { authenticator }),
  };
  return budget.retry(
    `NATS at ${servers.join(',')}`,
    async () => {
      try {
        return await connect(options);
      } catch (error) {
        const message = (error as Error).message;
        if (/auth|authorization|permission|user/i.test(message)) {
          throw new NatsStartError(`NATS at ${servers.join(',')} refused the credentials${credsFile === undefined ? ' (none given: set FLEET_NATS_CREDS to the .creds file)' : ` in FLEET_NATS_CREDS=${credsFile}`}: ${message}`);
        }
        throw error;
      }
    },
    (last) => new NatsStartError(`cannot reach NATS at ${servers.join(',')} within ${budget.seconds} s (${last.message}): check the --store / FLEET_STORE URL(s) and that nats-server runs there with JetStream enabled`),
  );
}
