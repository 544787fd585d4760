import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fleetEventSchema, SNAPSHOT_SCHEMA_VERSION, type FleetEvent } from '../../../contracts/index.js';
import { toPersisted } from '../../../server/core/state.js';
import { predatesChecksum, snapshotSchema, type Snapshot } from '../../../server/plane/persistence/snapshot-format.js';
import { EmbeddedStore } from '../../../server/store/embedded-store.js';
import { claimNow, joinAgent, makeHarness } from '../../support/core-harness.js';
import { LEGACY_SNAPSHOT_VERSION, writeLegacyStore } from '../../support/legacy-state.js';
import { withTempDir } from '../../support/store-fixtures.js';

test('a version-2 snapshot (scopes by git dir, no parked claims) loads as the current version, its claims intact', () =>
  withTempDir(async (home) => {
    const h = makeHarness();
    const atlas = joinAgent(h, 'ATLAS');
    claimNow(h, atlas.caller, { scope: '/home/u/app/.git', patterns: ['src/**'] });
    await writeLegacyStore(home, toPersisted(h.core.state), h.events);
    const onDisk = JSON.parse(readFileSync(join(home, 'state', 'snapshot.json'), 'utf8')) as { state: { schemaVersion: number; state: Record<string, unknown> } };
    assert.equal(onDisk.state.schemaVersion, LEGACY_SNAPSHOT_VERSION);
    assert.ok(!('parkedClaims' in onDisk.state.state), 'written as version 2 wrote it');

    const store = new EmbeddedStore<Snapshot, FleetEvent>({ dir: join(home, 'state'), snapshotSchema, eventSchema: fleetEventSchema, snapshotPredatesChecksum: predatesChecksum });
    const recovered = await store.open();
    await store.close();
    assert.equal(SNAPSHOT_SCHEMA_VERSION, 3);
    assert.equal(recovered.snapshot?.schemaVersion, SNAPSHOT_SCHEMA_VERSION);
    assert.deepEqual(recovered.snapshot?.state.parkedClaims, []);
    assert.deepEqual(recovered.snapshot?.state.claims.map((c) => [c.scope, c.pattern]), [['/home/u/app/.git', 'src/**']]);
  }));
