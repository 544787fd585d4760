import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { collect, createTestStore, recover, testEvents, withTempDir, type TestEvent } from '../../support/store-fixtures.js';

test('events survive a close and reopen, in order', () =>
  withTempDir(async (dir) => {
    const store = createTestStore(dir);
    assert.deepEqual(await store.open(), { snapshot: null, snapshotSeq: 0, tail: [] });
    await store.append(testEvents(1, 3));
    await store.append([{ seq: 4, at: 5, type: 'claim', note: 'ünïcode ✓' }]);
    await store.close();

    const reopened = createTestStore(dir);
    const recovered = await reopened.open();
    assert.deepEqual(recovered.tail, [...testEvents(1, 3), { seq: 4, at: 5, type: 'claim', note: 'ünïcode ✓' }]);
    await reopened.append(testEvents(5, 5));
    assert.deepEqual((await collect(reopened.history())).map((event) => event.seq), [1, 2, 3, 4, 5]);
    await reopened.close();
  }));

test('the store folder is created private (0700)', () =>
  withTempDir(async (parent) => {
    const dir = join(parent, 'home', 'store');
    const store = createTestStore(dir);
    await store.open();
    await store.close();
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
  }));

test('concurrent appends share fsyncs (group commit)', () =>
  withTempDir(async (dir) => {
    const store = createTestStore(dir);
    await store.open();
    await Promise.all(testEvents(1, 1000).map((event) => store.append([event])));
    const { appends, fsyncs } = store.stats;
    assert.equal(appends, 1000);
    assert.ok(fsyncs < appends / 5, `expected far fewer fsyncs than appends, got ${fsyncs} for ${appends}`);
    await store.close();
    const recovered = await recover(dir);
    assert.deepEqual(recovered.tail.map((event) => event.seq), testEvents(1, 1000).map((event) => event.seq));
  }));

test('close flushes appends still in the queue', () =>
  withTempDir(async (dir) => {
    const store = createTestStore(dir);
    await store.open();
    const appended = testEvents(1, 50).map((event) => store.append([event]));
    await store.close();
    await Promise.all(appended);
    assert.equal((await recover(dir)).tail.length, 50);
  }));

test('append after close fails with a clear error, as does append before open', () =>
  withTempDir(async (dir) => {
    const store = createTestStore(dir);
    await assert.rejects(store.append(testEvents(1, 1)), /cannot append: call open\(\) first/);
    await store.open();
    await store.close();
    await assert.rejects(store.append(testEvents(1, 1)), /cannot append: the store is closed/);
    await assert.rejects(store.compact({ count: 0 }, 0), /cannot compact: the store is closed/);
  }));

test('close during open waits for it, then releases the log', () =>
  withTempDir(async (dir) => {
    const store = createTestStore(dir);
    const opened = store.open();
    const closed = store.close();
    await opened;
    await closed;
    await assert.rejects(store.append(testEvents(1, 1)), /the store is closed/);
    await assert.rejects(store.open(), /already closed/);
  }));

test('out-of-order or schema-invalid appends are refused and leave the store usable', () =>
  withTempDir(async (dir) => {
    const store = createTestStore(dir);
    await store.open();
    await store.append(testEvents(1, 2));
    await assert.rejects(store.append(testEvents(4, 4)), /expected seq 3, got 4/);
    await assert.rejects(store.append(testEvents(2, 2)), /expected seq 3, got 2/);
    const invalid = { seq: 3, at: 'noon', type: 'tick' } as unknown as TestEvent;
    await assert.rejects(store.append([invalid]), /cannot append event seq 3: it does not match the event schema/);
    await store.append(testEvents(3, 3));
    await store.close();
    assert.deepEqual((await recover(dir)).tail, testEvents(1, 3));
    assert.deepEqual(await readdir(join(dir, 'events')), ['000000000001.jsonl']);
  }));
