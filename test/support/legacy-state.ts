import { join } from 'node:path';
import { z } from 'zod';
import { fleetEventSchema, type FleetEvent } from '../../contracts/index.js';
import type { PersistedState } from '../../server/core/state.js';
import { EmbeddedStore } from '../../server/store/embedded-store.js';

/** The snapshot schema version of planes that named scopes by their git common dir. */
export const LEGACY_SNAPSHOT_VERSION = 2;

/**
 * Writes a FLEET_HOME's store as a plane of snapshot version 2 left it: `snapshot` (a state whose
 * scopes the test named as that plane did, by git common dir) compacted at its seq without the
 * field version 3 added, and `events` (all of them, from seq 1) as the log, so the ones after the
 * snapshot are the tail replayed at start. The files are written by the store itself, whose
 * format (segments, checksummed snapshot) did not change with the scope ids.
 */
export async function writeLegacyStore(home: string, snapshot: PersistedState, events: readonly FleetEvent[]): Promise<void> {
  const store = new EmbeddedStore<unknown, FleetEvent>({ dir: join(home, 'state'), snapshotSchema: z.unknown(), eventSchema: fleetEventSchema });
  await store.open();
  await store.append(events.filter((e) => e.seq <= snapshot.seq));
  const legacy: Partial<PersistedState> = { ...snapshot };
  delete legacy.parkedClaims; // added in version 3
  await store.compact({ schemaVersion: LEGACY_SNAPSHOT_VERSION, state: legacy }, snapshot.seq);
  await store.append(events.filter((e) => e.seq > snapshot.seq));
  await store.close();
}
