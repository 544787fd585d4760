import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { sealRecord } from '../../../server/store/record-checksum.js';
import { collect, createTestStore, recover, snapshotText, testEvents, withTempDir } from '../../support/store-fixtures.js';

const seqs = (events: readonly { seq: number }[]) => events.map((event) => event.seq);
const range = (from: number, to: number) => seqs(testEvents(from, to));

test('compaction writes the snapshot and rotates; recovery returns snapshot plus tail', () =>
  withTempDir(async (dir) => {
    const store = createTestStore(dir);
    await store.open();
    await store.append(testEvents(1, 10));
    await store.compact({ count: 10 }, 10);
    await store.append(testEvents(11, 15));
    // Only the live segment keeps zeros reserved ahead of its records; history ends at its last record.
    const lines = (events: readonly object[]) => events.map((event) => `${sealRecord(JSON.stringify(event))}\n`).join('');
    assert.equal(await readFile(join(dir, 'events', '000000000001.jsonl'), 'utf8'), lines(testEvents(1, 10)));
    await store.close();

    const recovered = await recover(dir);
    assert.deepEqual(recovered.snapshot, { count: 10 });
    assert.equal(recovered.snapshotSeq, 10);
    assert.deepEqual(recovered.tail, testEvents(11, 15));
    assert.deepEqual(await readdir(join(dir, 'events')), ['000000000001.jsonl', '000000000011.jsonl']);
    assert.deepEqual(await readdir(dir), ['events', 'snapshot.json']);
  }));

test('history reads every event across archived and live segments, from any seq', () =>
  withTempDir(async (dir) => {
    const store = createTestStore(dir);
    await store.open();
    for (let round = 0; round < 4; round++) {
      const from = round * 5 + 1;
      await store.append(testEvents(from, from + 4));
      await store.compact({ count: from + 4 }, from + 4);
    }
    await store.append(testEvents(21, 22));
    assert.equal((await readdir(join(dir, 'events'))).length, 5);
    assert.deepEqual(seqs(await collect(store.history())), range(1, 22));
    assert.deepEqual(seqs(await collect(store.history(8))), range(8, 22));
    assert.deepEqual(seqs(await collect(store.history(21))), range(21, 22));
    assert.deepEqual(seqs(await collect(store.history(23))), []);
    await store.close();
  }));

test('a snapshot may lag the log; compaction alongside concurrent appends loses nothing', () =>
  withTempDir(async (dir) => {
    const store = createTestStore(dir);
    await store.open();
    await store.append(testEvents(1, 5));
    const work = [
      ...testEvents(6, 40).map((event) => store.append([event])),
      store.compact({ count: 3 }, 3),
      ...testEvents(41, 80).map((event) => store.append([event])),
      store.compact({ count: 40 }, 40),
    ];
    await Promise.all(work);
    await store.close();
    const recovered = await recover(dir);
    assert.equal(recovered.snapshotSeq, 40);
    assert.deepEqual(recovered.snapshot, { count: 40 });
    assert.deepEqual(seqs(recovered.tail), range(41, 80));
  }));

test('compaction refuses a seq the log has not reached, and an invalid snapshot', () =>
  withTempDir(async (dir) => {
    const store = createTestStore(dir);
    await store.open();
    await store.append(testEvents(1, 5));
    await assert.rejects(store.compact({ count: 9 }, 9), /cannot compact at seq 9: the log ends at seq 5/);
    await assert.rejects(store.compact({ count: -1 }, 5), /snapshot does not match its schema/);
    await store.compact({ count: 5 }, 5);
    await store.compact({ count: 5 }, 5); // nothing new: no second empty segment
    assert.deepEqual(await readdir(join(dir, 'events')), ['000000000001.jsonl', '000000000006.jsonl']);
    await store.close();
  }));

// Each state below is what a kill at one point of compact() leaves on disk.
test('recovery is exact at every compaction crash point', async (t) => {
  const crashPoints: [string, (dir: string) => Promise<void>, number][] = [
    ['during the snapshot temp write', async (dir) => writeFile(join(dir, '.snapshot.json.4242-0a1b2c.tmp'), '{"seq":5,"sta'), 0],
    ['after the snapshot rename, before rotation', async (dir) => writeFile(join(dir, 'snapshot.json'), snapshotText(5, { count: 5 })), 5],
    ['after creating the new, still empty segment', async (dir) => {
      await writeFile(join(dir, 'snapshot.json'), snapshotText(5, { count: 5 }));
      await writeFile(join(dir, 'events', '000000000008.jsonl'), '');
    }, 5],
  ];
  for (const [name, crash, snapshotSeq] of crashPoints) {
    await t.test(name, () =>
      withTempDir(async (dir) => {
        const store = createTestStore(dir);
        await store.open();
        await store.append(testEvents(1, 7));
        await store.close();
        await crash(dir);

        const reopened = createTestStore(dir);
        const recovered = await reopened.open();
        assert.equal(recovered.snapshotSeq, snapshotSeq);
        assert.deepEqual(recovered.snapshot, snapshotSeq === 0 ? null : { count: snapshotSeq });
        assert.deepEqual(seqs(recovered.tail), range(snapshotSeq + 1, 7));
        assert.ok(!(await readdir(dir)).some((name) => name.endsWith('.tmp')), 'leftover temp file removed');
        await reopened.append(testEvents(8, 9));
        assert.deepEqual(seqs(await collect(reopened.history())), range(1, 9));
        await reopened.close();
        assert.deepEqual(seqs((await recover(dir)).tail), range(snapshotSeq + 1, 9));
      }));
  }
});
