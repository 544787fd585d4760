// DESIGN §12: the snapshot carries a checksum; a corrupt one is refused like a corrupt log (§5.5),
// naming the file, never loaded. Snapshots older than checksums still load (migrated forward).
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fleetEventSchema, SNAPSHOT_SCHEMA_VERSION, type FleetEvent } from '../../../contracts/index.js';
import { toPersisted } from '../../../server/core/state.js';
import { predatesChecksum, snapshotSchema, type Snapshot } from '../../../server/plane/persistence/snapshot-format.js';
import { EmbeddedStore } from '../../../server/store/embedded-store.js';
import { StoreCorruptError } from '../../../server/store/store.js';
import { claimNow, joinAgent, makeHarness } from '../../support/core-harness.js';
import { withTempDir } from '../../support/store-fixtures.js';

const PATTERN = 'src/payments/**';

const planeStore = (dir: string) => new EmbeddedStore<Snapshot, FleetEvent>({ dir, snapshotSchema, eventSchema: fleetEventSchema, snapshotPredatesChecksum: predatesChecksum });

/** A store holding a compacted snapshot of one agent and its claim on PATTERN; returns snapshot.json's path. */
async function compactedStore(dir: string): Promise<string> {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  claimNow(h, atlas.caller, { patterns: [PATTERN] });
  const store = planeStore(dir);
  await store.open();
  await store.append(h.events);
  await store.compact({ schemaVersion: SNAPSHOT_SCHEMA_VERSION, state: toPersisted(h.core.state) } as Snapshot, h.core.state.seq);
  await store.close();
  return join(dir, 'snapshot.json');
}

async function open(dir: string) {
  const store = planeStore(dir);
  try {
    return await store.open();
  } finally {
    await store.close();
  }
}

const claimedPatterns = (snapshot: Snapshot | null) => Object.values(snapshot?.state.claims ?? {}).map((claim) => (claim as { pattern: string }).pattern);

test('a snapshot written by compaction loads, its checksum verified', () =>
  withTempDir(async (dir) => {
    const path = await compactedStore(dir);
    assert.match(await readFile(path, 'utf8'), /,"sha256":"[0-9a-f]{64}"\}\n$/);
    const recovered = await open(dir);
    assert.deepEqual(claimedPatterns(recovered.snapshot), [PATTERN]);
  }));

test('one flipped byte inside a string of the snapshot is refused, naming the file', () =>
  withTempDir(async (dir) => {
    const path = await compactedStore(dir);
    const text = await readFile(path, 'utf8');
    const at = text.indexOf(PATTERN) + 'src/pay'.length;
    // Still valid JSON of the schema: only the checksum can tell.
    await writeFile(path, `${text.slice(0, at)}${String.fromCharCode(text.charCodeAt(at) ^ 1)}${text.slice(at + 1)}`);
    await assert.rejects(open(dir), (error: unknown) => {
      assert.ok(error instanceof StoreCorruptError, `expected StoreCorruptError, got ${String(error)}`);
      assert.equal(error.file, path);
      assert.match(error.message, /snapshot\.json: its checksum does not match its content/);
      return true;
    });
  }));

test('a snapshot of this version without its checksum is refused', () =>
  withTempDir(async (dir) => {
    const path = await compactedStore(dir);
    const { seq, state } = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ seq, state }));
    await assert.rejects(open(dir), /snapshot\.json: it carries no checksum/);
  }));

test('a snapshot from before checksums (schema version 1, no sha256) still loads, migrated forward', () =>
  withTempDir(async (dir) => {
    const path = await compactedStore(dir);
    const { seq, state } = JSON.parse(await readFile(path, 'utf8')) as { seq: number; state: Snapshot };
    await writeFile(path, JSON.stringify({ seq, state: { ...state, schemaVersion: 1 } }));
    const recovered = await open(dir);
    assert.equal(recovered.snapshot?.schemaVersion, SNAPSHOT_SCHEMA_VERSION);
    assert.deepEqual(claimedPatterns(recovered.snapshot), [PATTERN]);
  }));
