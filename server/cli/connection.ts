import { connectToPlane } from '../client/connect.js';
import type { PlaneClient } from '../client/plane-client.js';
import { UsageError } from './cli-error.js';
import { loadSession, saveSession } from '../home/sessions.js';

/** The person at the terminal, acting as the operator: presents FLEET_HOME/operator-token. */
export function connectAsOperator(home: string): Promise<PlaneClient> {
  return connectToPlane({ home, client: 'fleet-cli', credential: 'operator' });
}

/** A connection with the plane token only: it reads, checks (as a person would) and joins, never acts as the operator. */
export function connectUnjoined(home: string): Promise<PlaneClient> {
  return connectToPlane({ home, client: 'fleet-cli' });
}

/**
 * A connection acting as the agent `callsign`, re-attached with the session token saved at join.
 * An agent of role operator is the person's own, and the plane re-attaches it only with the
 * operator credential.
 */
export async function connectAs(home: string, callsign: string): Promise<PlaneClient> {
  const saved = loadSession(home, callsign);
  if (!saved) throw new UsageError(`no session for ${callsign} in ${home}: run \`fleet join --callsign ${callsign} --runtime <runtime>\` first`);
  const client = await (saved.role === 'operator' ? connectAsOperator(home) : connectUnjoined(home));
  try {
    const joined = await client.call('fleet_agent_join', { callsign, runtime: saved.runtime, sessionToken: saved.sessionToken });
    await saveSession(home, { ...saved, agentId: joined.agentId });
    return client;
  } catch (error) {
    client.close();
    throw error;
  }
}

/** Runs `work` on a connection and always closes it. */
export async function using<T>(client: Promise<PlaneClient>, work: (client: PlaneClient) => Promise<T>): Promise<T> {
  const connected = await client;
  try {
    return await work(connected);
  } finally {
    connected.close();
  }
}
