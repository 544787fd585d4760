// The event log waits for the disk off the event loop (issue 14): while an fdatasync is in flight,
// the plane goes on serving other clients, and an append is still acknowledged only once durable.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestStore, recover, testEvents, withTempDir } from '../../support/store-fixtures.js';

/** Lets the event loop go round once (its check phase, after the poll phase that serves sockets). */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test('the event loop turns while an append waits for its fdatasync, and the append resolves only once it is on disk', () =>
  withTempDir(async (dir) => {
    const store = createTestStore(dir);
    await store.open();
    for (let round = 0; round < 20; round++) {
      let durable = false;
      const appended = store.append(testEvents(round + 1, round + 1)).then(() => (durable = true));
      // The flush starts in this turn's check phase, ahead of this wait: had it synced in place,
      // the append would be durable before the loop could turn again.
      await nextTurn();
      assert.equal(durable, false, `round ${round}: the fdatasync held the event loop until it finished`);
      await appended;
    }
    assert.equal(store.stats.fsyncs, 20);
    await store.close();
    assert.deepEqual((await recover(dir)).tail.map((event) => event.seq), testEvents(1, 20).map((event) => event.seq), 'every acknowledged append is on disk, in order');
  }));
