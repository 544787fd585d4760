import { readFile } from 'node:fs/promises';
import { connect, credsAuthenticator, type NatsConnection } from '@nats-io/transport-node';

/** Start-up could not reach or enter the NATS cluster; the message names what failed and the fix. */
export class NatsStartError extends Error {
  override readonly name = 'NatsStartError';
}

/**
 * Connects to the first reachable of `servers` (the client keeps the others for failover and
 * reconnects for ever). A wrong URL or refused credentials fail here, naming which.
 */
export async function connectNats(servers: readonly string[], credsFile: string | undefined, name: string): Promise<NatsConnection> {
  let authenticator;
  if (credsFile !== undefined) {
    const creds = await readFile(credsFile).catch((error: Error) => {
      throw new NatsStartError(`FLEET_NATS_CREDS=${credsFile} cannot be read (${error.message}): point it at the .creds file of this fleet's NATS user`);
    });
    authenticator = credsAuthenticator(new Uint8Array(creds));
  }
  try {
    return await connect({ servers: [...servers], name, maxReconnectAttempts: -1, reconnectTimeWait: 250, timeout: 5_000, ...(authenticator && { authenticator }) });
  } catch (error) {
    const message = (error as Error).message;
    if (/auth|authorization|permission|user/i.test(message)) {
      throw new NatsStartError(`NATS at ${servers.join(',')} refused the credentials${credsFile === undefined ? ' (none given: set FLEET_NATS_CREDS to the .creds file)' : ` in FLEET_NATS_CREDS=${credsFile}`}: ${message}`);
    }
    throw new NatsStartError(`cannot reach NATS at ${servers.join(',')} (${message}): check the --store / FLEET_STORE URL(s) and that nats-server runs there with JetStream enabled`);
  }
}
