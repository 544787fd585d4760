import { join } from 'node:path';
import { z } from 'zod';
import { fleetEventSchema, SNAPSHOT_SCHEMA_VERSION, type FleetEvent } from '../../contracts/index.js';
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

/** The fields artifacts gained when they became records; a plane before that stored none of them. */
const ARTIFACT_RECORD_FIELDS = ['artifactId', 'schemaVersion', 'kind', 'workItem', 'producedByRole', 'producedBy', 'producedAt', 'sourceRefs', 'fingerprint', 'issuedTo'];

/**
 * `value` as a plane before artifact records wrote it: the artifacts (the values of these keys)
 * without record fields, and without `id` but for a clarification request (its message's id).
 */
function withoutArtifactRecords(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutArtifactRecords(v, key));
  if (value === null || typeof value !== 'object') return value;
  const artifact = ARTIFACT_KEYS.has(key);
  const entries = Object.entries(value as Record<string, unknown>).filter(([k]) => !artifact || !(ARTIFACT_RECORD_FIELDS.includes(k) || (k === 'id' && key !== 'request')));
  return Object.fromEntries(entries.map(([k, v]) => [k, withoutArtifactRecords(v, k)]));
}
const ARTIFACT_KEYS = new Set(['plan', 'artifact', 'report', 'decision', 'verificationRequest', 'request', 'response']);

/**
 * Writes a FLEET_HOME's store as a plane before artifact records left it (same snapshot version):
 * the artifacts in `events` and in `snapshot` (if any, compacted at its seq) without their record
 * fields, no guidance packets recorded, no artifacts kept by id.
 */
export async function writePreArtifactStore(home: string, snapshot: PersistedState | undefined, events: readonly FleetEvent[]): Promise<void> {
  const store = new EmbeddedStore<unknown, FleetEvent>({ dir: join(home, 'state'), snapshotSchema: z.unknown(), eventSchema: fleetEventSchema });
  await store.open();
  const old = events.filter((e) => e.type !== 'work.guided').map((e) => withoutArtifactRecords(e) as FleetEvent);
  const at = snapshot?.seq ?? 0;
  await store.append(old.filter((e) => e.seq <= at));
  if (snapshot) {
    const state: Partial<PersistedState> = withoutArtifactRecords(snapshot) as PersistedState;
    delete state.artifacts;
    delete state.guidancePackets;
    await store.compact({ schemaVersion: SNAPSHOT_SCHEMA_VERSION, state }, at);
  }
  await store.append(old.filter((e) => e.seq > at));
  await store.close();
}
