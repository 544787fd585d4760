import { z } from 'zod';
import { SNAPSHOT_SCHEMA_VERSION } from '../../../contracts/index.js';
import { stateSchema } from '../../core/state.js';

/**
 * The snapshot on disk carries a schema version. Older versions are migrated forward here, one
 * step per version, before validation; a newer version than this plane knows is refused.
 */
const migrations: Record<number, (state: unknown) => unknown> = {
  1: (state) => state, // version 2 added the file's checksum; the state is unchanged
  // Version 3 names scopes portably (DESIGN §13) and may park claims. Renaming needs each
  // repository's git config, so the plane does it when it starts (scope-migration.ts), for log
  // tails of an older plane too; here the state only gains its (empty) parked claims.
  2: (state) => (typeof state === 'object' && state !== null ? { ...state, parkedClaims: [] } : state),
};

/** The first version whose files carry a checksum: older ones load without. */
const CHECKSUM_SINCE = 2;

/** Whether a snapshot (its state as found on disk) predates checksums, so may lack one. */
export function predatesChecksum(raw: unknown): boolean {
  const version = typeof raw === 'object' && raw !== null ? (raw as { schemaVersion?: unknown }).schemaVersion : undefined;
  return typeof version === 'number' && version < CHECKSUM_SINCE;
}

function migrate(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return raw;
  const record = raw as { schemaVersion?: unknown; state?: unknown };
  let version = typeof record.schemaVersion === 'number' ? record.schemaVersion : 0;
  if (version > SNAPSHOT_SCHEMA_VERSION) return raw; // validation below names the unknown version
  let state = record.state;
  for (; version < SNAPSHOT_SCHEMA_VERSION; version++) {
    const step = migrations[version];
    if (!step) return raw;
    state = step(state);
  }
  return { schemaVersion: version, state };
}

export const snapshotSchema = z.preprocess(
  migrate,
  z.object({
    schemaVersion: z.literal(SNAPSHOT_SCHEMA_VERSION, { error: `snapshot schema version is not ${SNAPSHOT_SCHEMA_VERSION}: it was written by a newer plane` }),
    state: stateSchema,
  }),
);
export type Snapshot = z.infer<typeof snapshotSchema>;
