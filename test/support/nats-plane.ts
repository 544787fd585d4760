import { connect } from '@nats-io/transport-node';
import type { FleetEvent } from '../../contracts/index.js';
import { NatsStore } from '../../server/store/nats/nats-store.js';
import { fleetEventSchema } from '../../contracts/index.js';
import { snapshotSchema, type Snapshot } from '../../server/plane/persistence/snapshot-format.js';
import { PlaneCallError, type PlaneClient } from '../../server/client/plane-client.js';
import type { MethodName, Params, Result } from '../../contracts/index.js';
import type { NatsCluster } from './nats-cluster.js';
import { removeHome, startPlaneProcess, type PlaneProcess } from './plane-process.js';

/** A real plane process (own temp FLEET_HOME) on the cluster's JetStream, in fleet `fleet`. */
export function startNatsPlane(cluster: NatsCluster | string, fleet: string, env: NodeJS.ProcessEnv = {}): Promise<PlaneProcess> {
  const urls = typeof cluster === 'string' ? cluster : cluster.urls;
  return startPlaneProcess({ env: { FLEET_STORE: urls, FLEET_NAME: fleet, ...env } });
}

/** The fleet's stream opened with the plane's own store, as plane `planeId` (its messages name it), on this machine's clock; with the last event's seq. */
export async function openStreamAs(cluster: NatsCluster | string, fleet: string, planeId: string): Promise<{ store: NatsStore<Snapshot, FleetEvent>; lastEventSeq: number }> {
  const urls = typeof cluster === 'string' ? cluster : cluster.urls;
  const store = new NatsStore({ servers: urls.split(','), fleet, planeId, planeVersion: 'test', snapshotSchema, eventSchema: fleetEventSchema, now: Date.now });
  const recovered = await store.open();
  return { store, lastEventSeq: recovered.tail.at(-1)?.seq ?? recovered.snapshotSeq };
}

/** Every event of the fleet's stream, in the stream's own order (read with the plane's own decoder). */
export async function streamEvents(cluster: NatsCluster | string, fleet: string): Promise<FleetEvent[]> {
  const { store } = await openStreamAs(cluster, fleet, 'test-reader');
  try {
    const events: FleetEvent[] = [];
    for await (const message of store.messages(1, store.base)) events.push(...message.events);
    return events;
  } finally {
    await store.close();
  }
}

/** A raw NATS connection to the cluster (watchers of `fleet.<name>.events.>`). */
export function natsConnection(cluster: NatsCluster) {
  return connect({ servers: cluster.urls.split(',') });
}

/** Waits (bounded) until the plane reports its store healthy in `fleet status`: its own recovery signal. */
export async function storeHealthy(client: PlaneClient, boundMs = 20_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    // A read runs the decisions that fell due (an agent's expiry), published like any change: while the
    // store is still coming back their publish can time out and the read is refused (seen in full runs).
    const store = (await callWhenServed(client, 'fleet_status', {}, Math.max(0, deadline - Date.now()))).plane.store;
    if (store?.health === 'ok') return;
    if (Date.now() > deadline) throw new Error(`the store stayed unhealthy for ${boundMs} ms: ${store?.problems?.join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50)); // a status poll's pacing
  }
}

/**
 * A mutation as a careful agent makes it after a fault: STORE_UNAVAILABLE says "retry in a few
 * seconds" (a plane whose store answered a probe may still time out a publish while the stream
 * elects its leader), so it is retried, within `boundMs`; any other error is thrown at once.
 */
export async function callWhenServed<N extends MethodName>(client: PlaneClient, method: N, params: Params<N>, boundMs = 30_000): Promise<Result<N>> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    try {
      return await client.call(method, params);
    } catch (error) {
      if (!(error instanceof PlaneCallError) || error.errorName !== 'STORE_UNAVAILABLE' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250)); // the pacing a retrying agent keeps
    }
  }
}

/** Each client calls its own plane every `everyMs`, as a working agent does; a refusal does not stop it. Returns the way to stop. */
export function keepCalling(clients: readonly PlaneClient[], everyMs: number): () => void {
  const timer = setInterval(() => {
    for (const client of clients) void client.call('fleet_agent_heartbeat', {}).catch(() => undefined);
  }, everyMs);
  return () => clearInterval(timer);
}

/** Stops each plane (SIGTERM, waiting for its exit) and removes its home. */
export async function stopPlanes(planes: readonly PlaneProcess[]): Promise<void> {
  for (const plane of planes) {
    await plane.stop();
    removeHome(plane.home);
  }
}
