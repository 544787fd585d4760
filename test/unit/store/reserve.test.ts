// The live segment's reserve: records are written into zeros kept ahead of them, and the zeros are
// renewed by the flush that runs past them. Batches here cross it one way and another.
import assert from 'node:assert/strict';
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { RESERVE_BYTES } from '../../../server/store/event-log.js';
import { sealRecord } from '../../../server/store/record-checksum.js';
import { createTestStore, recover, testEvents, withTempDir, type TestEvent } from '../../support/store-fixtures.js';

const SEGMENT = join('events', '000000000001.jsonl');
const lines = (events: readonly TestEvent[]) => events.map((event) => `${sealRecord(JSON.stringify(event))}\n`).join('');
const withNotes = (events: TestEvent[], bytes: number) => events.map((event) => ({ ...event, note: 'n'.repeat(bytes) }));

test('records land right after each other across renewals of the reserve, in one batch larger than it and in many small ones', () =>
  withTempDir(async (dir) => {
    const store = createTestStore(dir);
    await store.open();
    const big = withNotes(testEvents(1, 12), 100_000); // one batch of ~1.2 MB, more than the reserve
    await store.append(big);
    let file = await readFile(join(dir, SEGMENT));
    const bigBytes = Buffer.byteLength(lines(big));
    assert.equal(file.toString('utf8', 0, bigBytes), lines(big));
    assert.equal(file.length, bigBytes + RESERVE_BYTES, 'the flush that ran past the reserve renewed it from the end of its batch');

    const small = withNotes(testEvents(13, 200), 10_000); // ~1.9 MB more, one batch at a time
    for (const event of small) await store.append([event]);
    const all = [...big, ...small];
    file = await readFile(join(dir, SEGMENT));
    const allBytes = Buffer.byteLength(lines(all));
    assert.equal(file.toString('utf8', 0, allBytes), lines(all));
    assert.ok(file.length > allBytes && file.subarray(allBytes).every((byte) => byte === 0), 'zeros follow the records');

    // What a crash would leave now, recovered elsewhere: every record.
    const crashed = join(dir, 'crashed');
    await cp(join(dir, 'events'), join(crashed, 'events'), { recursive: true });
    assert.deepEqual((await recover(crashed)).tail, all);

    await store.close();
    assert.equal(await readFile(join(dir, SEGMENT), 'utf8'), lines(all));
  }));
