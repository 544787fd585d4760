import { fleetEventSchema, PLANE_VERSION, type FleetEvent, type StoreHealth } from '../../../contracts/index.js';
import type { FleetCore } from '../../core/fleet-core.js';
import { EmbeddedStore } from '../../store/embedded-store.js';
import { NatsStore } from '../../store/nats/nats-store.js';
import type { Recovered, Store } from '../../store/store.js';
import type { Journal } from './journal.js';
import { relayLiveness, relayStop } from '../shared-log/liveness-relay.js';
import { ReplicaSync } from '../shared-log/replica-sync.js';
import { predatesChecksum, snapshotSchema, type Snapshot } from './snapshot-format.js';
import type { StoreChoice } from './store-choice.js';

/** How often a plane on a shared log logs the liveness its calls saw, at most (real ms). */
const LIVENESS_RELAY_MAX_MS = 5_000;
/** A shared log's replica is snapshotted every this many events. */
const NATS_SNAPSHOT_EVERY_EVENTS = 5_000;

const EMBEDDED_HEALTH: StoreHealth = Object.freeze({ kind: 'embedded', health: 'ok' });

export interface PlaneStore {
  store: Store<Snapshot, FleetEvent>;
  recovered: Recovered<Snapshot, FleetEvent>;
  /** Starts what the store needs beside the journal (for NATS: following the shared log). */
  attach(core: FleetCore, journal: Journal, agentTtlRealMs: number): Promise<void>;
  health(): StoreHealth;
  /** Calls `listener` with the new health each time it changes; returns the way to stop. The embedded store never changes. */
  onHealthChange(listener: (health: StoreHealth) => void): () => void;
  /** A replicated store's read barrier (see ReplicaSync.barrier); none for the embedded store. */
  barrier?: () => () => Promise<boolean>;
  /** At shutdown, before the clients go: a shared log hears that this plane stops and relays no more liveness. */
  announceStop(): void;
  /** Stops what `attach` started; before the store closes. */
  detach(): Promise<void>;
}

/** Opens the chosen store; for NATS, connects, checks or creates the stream, and replays it. */
export async function openPlaneStore(choice: StoreChoice, dir: string, planeId: string, now: () => number, log: (message: string) => void): Promise<PlaneStore> {
  if (choice.kind === 'embedded') {
    const store = new EmbeddedStore<Snapshot, FleetEvent>({ dir, snapshotSchema, eventSchema: fleetEventSchema, snapshotPredatesChecksum: predatesChecksum });
    const recovered = await store.open();
    return { store, recovered, attach: () => Promise.resolve(), health: () => EMBEDDED_HEALTH, onHealthChange: () => () => undefined, announceStop: () => undefined, detach: () => Promise.resolve() };
  }
  const store = new NatsStore<Snapshot, FleetEvent>({ servers: choice.servers, ...(choice.credsFile !== undefined && { credsFile: choice.credsFile }), fleet: choice.fleet, planeId, planeVersion: PLANE_VERSION, snapshotSchema, eventSchema: fleetEventSchema, now, startTimeoutSeconds: choice.startTimeoutSeconds, log });
  const recovered = await store.open();
  log(`store: NATS JetStream stream ${store.names.stream} at ${choice.servers.join(',')} (stream seq ${store.base}, ${recovered.tail.length} events replayed after the snapshot)`);
  let sync: ReplicaSync | undefined;
  let relay: NodeJS.Timeout | undefined;
  const healthListeners = new Set<(health: StoreHealth) => void>();
  let attached: FleetCore | undefined;
  let stopping = false;
  const relayNow = () => {
    if (attached && !stopping && sync!.health().health === 'ok') attached.run(undefined, relayLiveness);
  };
  const healthChanged = () => {
    const health = sync!.health();
    for (const listener of healthListeners) listener(health);
    // Back in touch: what this plane heard while its link stalled is logged now, not a relay period
    // later, so the other planes credit its agents before their silence there runs out.
    if (health.health === 'ok') setImmediate(relayNow);
  };
  return {
    store,
    recovered,
    async attach(core, journal, agentTtlRealMs) {
      sync = new ReplicaSync(core, journal, store, { snapshot: recovered.snapshot?.state ?? null, tail: recovered.tail }, { planeId, servers: choice.servers, snapshotEvery: NATS_SNAPSHOT_EVERY_EVENTS, clockSkewBoundMs: choice.clockSkewBoundMs, now, log, healthChanged });
      await sync.start();
      attached = core;
      relay = setInterval(relayNow, Math.min(LIVENESS_RELAY_MAX_MS, agentTtlRealMs / 4));
    },
    health: () => sync?.health() ?? { kind: 'nats', health: 'ok' },
    onHealthChange(listener) {
      healthListeners.add(listener);
      return () => healthListeners.delete(listener);
    },
    barrier: () => sync?.barrier() ?? (() => Promise.resolve(false)),
    announceStop() {
      stopping = true;
      clearInterval(relay);
      // Refused while cut off: the other planes then hold its agents as a cut-off plane's.
      try {
        if (attached && sync!.health().health === 'ok') attached.run(undefined, relayStop);
      } catch (error) {
        log(`store: this plane's stop was not logged (${(error as Error).message})`);
      }
    },
    async detach() {
      clearInterval(relay);
      await sync?.close();
    },
  };
}
