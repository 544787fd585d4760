import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import { Compactor } from '../../../server/plane/persistence/compactor.js';
import { Journal } from '../../../server/plane/persistence/journal.js';
import type { Snapshot } from '../../../server/plane/persistence/snapshot-format.js';
import { joinAgent, makeHarness } from '../../support/core-harness.js';

/** A store whose compactions finish when the test says so, recording the seq each one captured. */
function slowStore() {
  const captured: number[] = [];
  const finish: (() => void)[] = [];
  return {
    captured,
    finish,
    append: (_events: readonly FleetEvent[]) => Promise.resolve(),
    compact: (_snapshot: Snapshot, seq: number) => {
      captured.push(seq);
      return new Promise<void>((resolve) => finish.push(resolve));
    },
  };
}

test('the shutdown snapshot is taken after a compaction under way, at the latest seq', async () => {
  const h = makeHarness();
  const store = slowStore();
  const journal = new Journal(store, 0, (error) => assert.fail(error));
  h.core.onEvent((event) => journal.record(event));
  const compactor = new Compactor(h.core, journal, store, 1_000_000, () => undefined, 0);

  joinAgent(h, 'ATLAS');
  const first = compactor.compact();
  const capturedFirst = h.core.state.seq;
  joinAgent(h, 'BOLT'); // more events while that snapshot is being written
  const latest = compactor.compactLatest();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(store.captured, [capturedFirst], 'one compaction at a time');
  store.finish[0]!();
  await first;
  await new Promise((resolve) => setImmediate(resolve));
  store.finish[1]!();
  await latest;
  assert.deepEqual(store.captured, [capturedFirst, h.core.state.seq]);
  assert.ok(h.core.state.seq > capturedFirst);
});
