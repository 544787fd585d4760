import assert from 'node:assert/strict';
import { appendFile, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { RESERVE_BYTES } from '../../../server/store/event-log.js';
import { sealRecord } from '../../../server/store/record-checksum.js';
import { StoreCorruptError } from '../../../server/store/store.js';
import { createTestStore, recover, snapshotText, testEvents, withTempDir } from '../../support/store-fixtures.js';

const FIRST_SEGMENT = join('events', '000000000001.jsonl');

async function storeWithEvents(dir: string, last: number): Promise<string> {
  const store = createTestStore(dir);
  await store.open();
  await store.append(testEvents(1, last));
  await store.close();
  return join(dir, FIRST_SEGMENT);
}

/** Records as the log writes them (sealed with their checksum); a string is a line as given. */
function jsonl(lines: unknown[]): string {
  return lines.map((line) => (typeof line === 'string' ? line : sealRecord(JSON.stringify(line)))).join('\n') + '\n';
}

/**
 * The live segment as an open store leaves it: `records`, then only zeros (RESERVE_BYTES of them
 * right after opening; appends then write into them).
 */
async function assertRecordsThenReserve(segment: string, records: string, justOpened = false): Promise<void> {
  const bytes = await readFile(segment);
  const end = Buffer.byteLength(records);
  assert.equal(bytes.toString('utf8', 0, end), records);
  if (justOpened) assert.equal(bytes.length, end + RESERVE_BYTES);
  assert.ok(bytes.length > end, 'zeros are reserved after the records');
  assert.ok(bytes.subarray(end).every((byte) => byte === 0), 'the reserve holds only zeros');
}

/** Recovery cut data off after a run of zeros: it said so, and kept the segment as it found it. */
async function assertKeptAsFound(dir: string, notices: string[] | undefined, asFound: Buffer): Promise<void> {
  const copies = (await readdir(join(dir, 'events'))).filter((name) => name.startsWith('000000000001.jsonl.cut-'));
  assert.equal(copies.length, 1, 'one copy of the segment as found');
  assert.deepEqual(await readFile(join(dir, 'events', copies[0]!)), asFound);
  assert.equal(notices?.length, 1);
  assert.match(notices![0]!, new RegExp(`data follows a run of zeros.*kept in .*${copies[0]!.replace(/[.]/g, '\\.')}$`));
}

async function assertRefused(dir: string, file: string, line: number | undefined, problem: RegExp): Promise<void> {
  await assert.rejects(recover(dir), (error: unknown) => {
    assert.ok(error instanceof StoreCorruptError, `expected StoreCorruptError, got ${String(error)}`);
    assert.equal(error.file, file);
    assert.equal(error.line, line);
    assert.ok(error.message.startsWith(line === undefined ? file : `${file}, line ${line}:`), error.message);
    assert.match(error.message, problem);
    assert.match(error.message, /move the file aside or restore it/);
    return true;
  });
}

for (const [name, torn] of [
  ['an unterminated fragment', '{"seq":4,"at":17'],
  ['an unparsable but terminated last line', '{"seq":4,"at\n'],
  ['a complete record missing only its newline', '{"seq":4,"at":1,"type":"tick"}'],
] as const) {
  test(`a torn final record (${name}) is dropped and cut off, and appends continue cleanly`, () =>
    withTempDir(async (dir) => {
      const segment = await storeWithEvents(dir, 3);
      const intact = await readFile(segment, 'utf8');
      await appendFile(segment, torn);

      const store = createTestStore(dir);
      assert.deepEqual((await store.open()).tail, testEvents(1, 3));
      await assertRecordsThenReserve(segment, intact, true);
      await store.append(testEvents(4, 4));
      await store.close();

      assert.deepEqual((await recover(dir)).tail, testEvents(1, 4));
      assert.equal(await readFile(segment, 'utf8'), intact + jsonl(testEvents(4, 4)));
    }));
}

test('records end at the reserve a crash left in place; appends continue right after them and a clean close cuts the zeros off', () =>
  withTempDir(async (dir) => {
    const segment = await storeWithEvents(dir, 0);
    const records = jsonl(testEvents(1, 3));
    await writeFile(segment, Buffer.concat([Buffer.from(records), Buffer.alloc(5000)]));

    const store = createTestStore(dir);
    const recovered = await store.open();
    assert.deepEqual(recovered.tail, testEvents(1, 3));
    assert.equal(recovered.notices, undefined, 'zeros alone are no news');
    await assertRecordsThenReserve(segment, records, true);
    await store.append(testEvents(4, 5));
    await assertRecordsThenReserve(segment, jsonl(testEvents(1, 5)));
    await store.close();
    assert.equal(await readFile(segment, 'utf8'), jsonl(testEvents(1, 5)));
  }));

test('a batch the disk wrote out of order (an earlier page still zero, a later one written) ends the log at the first zero, and its records never come back', () =>
  withTempDir(async (dir) => {
    const segment = await storeWithEvents(dir, 0);
    const records = jsonl(testEvents(1, 3));
    const [four, five] = testEvents(4, 5).map((event) => JSON.stringify({ ...event, note: 'never acknowledged' }));
    // Event 4 cut short by a page of zeros, event 5 in the page after it, then the rest of the reserve.
    const asFound = Buffer.concat([Buffer.from(records + four!.slice(0, 10)), Buffer.alloc(4096), Buffer.from(`${five}\n`), Buffer.alloc(2048)]);
    await writeFile(segment, asFound);

    const store = createTestStore(dir);
    const recovered = await store.open();
    assert.deepEqual(recovered.tail, testEvents(1, 3));
    await assertKeptAsFound(dir, recovered.notices, asFound);
    // The leftover is zeroed before anything is written: a later crash must not find event 5 after new records.
    await assertRecordsThenReserve(segment, records, true);
    await store.append(testEvents(4, 4));
    await assertRecordsThenReserve(segment, jsonl(testEvents(1, 4)));
    await store.close();
    assert.deepEqual((await recover(dir)).tail, testEvents(1, 4));
  }));

test('zeros in the middle of the live segment end its records there (as a torn batch would), and the segment as found is kept beside it', () =>
  withTempDir(async (dir) => {
    const segment = await storeWithEvents(dir, 0);
    const records = Buffer.from(jsonl(testEvents(1, 300)));
    const asFound = Buffer.from(records);
    asFound.fill(0, 5000, 5000 + 4096); // a lost write, or a batch the disk wrote out of order
    await writeFile(segment, asFound);

    const recovered = await recover(dir);
    const end = records.lastIndexOf(0x0a, 5000) + 1;
    assert.deepEqual(recovered.tail, testEvents(1, jsonl(testEvents(1, 300)).slice(0, end).split('\n').length - 1));
    await assertKeptAsFound(dir, recovered.notices, asFound);
    assert.equal((await readFile(segment)).length, end, 'the live segment now ends at its last record before the zeros');
  }));

test('a zero byte in an archived segment is damage, not a reserve', () =>
  withTempDir(async (dir) => {
    const segment = await storeWithEvents(dir, 0);
    const [one, two] = testEvents(1, 2);
    await writeFile(segment, Buffer.concat([Buffer.from(jsonl([one])), Buffer.alloc(16), Buffer.from('\n')]));
    await writeFile(join(dir, 'events', '000000000002.jsonl'), jsonl([two]));
    await assertRefused(dir, segment, 2, /missing its checksum/);
  }));

test('a torn record on a fresh store (the very first line) is cut off too', () =>
  withTempDir(async (dir) => {
    const segment = await storeWithEvents(dir, 0);
    await writeFile(segment, '{"seq":1,');
    assert.deepEqual((await recover(dir)).tail, []);
    assert.equal((await stat(segment)).size, 0);
  }));

test('an unparsable line with records after it is corruption, named by file and line', () =>
  withTempDir(async (dir) => {
    const segment = await storeWithEvents(dir, 0);
    const [one, , three] = testEvents(1, 3);
    await writeFile(segment, jsonl([one, '{"seq":2,"at":1,"ty', three]));
    await assertRefused(dir, segment, 2, /missing its checksum.*further records follow it/);
    await writeFile(segment, jsonl([one, sealRecord('{"seq":2,"at":1,"ty'), three]));
    await assertRefused(dir, segment, 2, /not valid JSON.*further records follow it/);
  }));

test('an unparsable line followed by a torn fragment is corruption, not a torn write', () =>
  withTempDir(async (dir) => {
    const segment = await storeWithEvents(dir, 1);
    await appendFile(segment, 'garbage\n{"seq":3');
    await assertRefused(dir, segment, 2, /missing its checksum/);
  }));

test('a byte changed on disk inside a record is refused by its checksum, though the record still parses and fits the schema', () =>
  withTempDir(async (dir) => {
    const segment = await storeWithEvents(dir, 3);
    const text = (await readFile(segment)).toString('utf8');
    const second = text.split('\n')[1]!;
    // "seq":2 → "seq":2 with its "at" time moved by one digit: still JSON, still an event.
    const changed = second.replace(/"at":(\d)/, (_, digit: string) => `"at":${(Number(digit) + 1) % 10}`);
    assert.notEqual(changed, second);
    await writeFile(segment, text.replace(second, changed));
    await assertRefused(dir, segment, 2, /changed on disk \(its checksum is [0-9a-f]{8}, its content's [0-9a-f]{8}\).*further records follow it/);
  }));

test('a log written before records carried checksums still loads', () =>
  withTempDir(async (dir) => {
    const segment = await storeWithEvents(dir, 0);
    await writeFile(segment, testEvents(1, 3).map((event) => `${JSON.stringify(event)}\n`).join(''));
    assert.deepEqual((await recover(dir)).tail.map((event) => event.seq), [1, 2, 3]);
  }));

test('a record that is valid JSON but fails the schema is corruption, even as the last line', () =>
  withTempDir(async (dir) => {
    const segment = await storeWithEvents(dir, 2);
    await appendFile(segment, jsonl([{ seq: 3, at: 'noon', type: 'tick' }]));
    await assertRefused(dir, segment, 3, /does not match the event schema/);
    await writeFile(segment, jsonl([testEvents(1, 1)[0], { seq: 2, type: 'tick' }, testEvents(3, 3)[0]]));
    await assertRefused(dir, segment, 2, /does not match the event schema/);
  }));

test('a gap or a repeated seq is corruption', () =>
  withTempDir(async (dir) => {
    const segment = await storeWithEvents(dir, 0);
    const [one, two, three] = testEvents(1, 3);
    await writeFile(segment, jsonl([one, three]));
    await assertRefused(dir, segment, 2, /expected seq 2 but found seq 3/);
    await writeFile(segment, jsonl([one, two, two]));
    await assertRefused(dir, segment, 3, /expected seq 3 but found seq 2/);
  }));

test('an unreadable or schema-invalid snapshot is refused, naming snapshot.json', () =>
  withTempDir(async (dir) => {
    await storeWithEvents(dir, 2);
    const snapshot = join(dir, 'snapshot.json');
    await writeFile(snapshot, '{"seq": 2, "state": {"cou');
    await assertRefused(dir, snapshot, undefined, /not valid JSON/);
    await writeFile(snapshot, snapshotText(2, { count: -1 }));
    await assertRefused(dir, snapshot, undefined, /does not match its schema/);
    await writeFile(snapshot, '');
    await assertRefused(dir, snapshot, undefined, /not valid JSON/);
  }));

test('a snapshot ahead of the log is refused: events it covers are missing from the log', () =>
  withTempDir(async (dir) => {
    const segment = await storeWithEvents(dir, 2);
    await writeFile(join(dir, 'snapshot.json'), snapshotText(5, { count: 5 }));
    await assertRefused(dir, segment, undefined, /log ends at seq 2, but snapshot\.json covers up to seq 5/);
    await rm(segment);
    await assertRefused(dir, join(dir, 'events'), undefined, /holds no log segment/);
  }));

test('a log whose oldest segment starts after the snapshot is refused', () =>
  withTempDir(async (dir) => {
    await storeWithEvents(dir, 0);
    await rm(join(dir, FIRST_SEGMENT));
    const late = join(dir, 'events', '000000000004.jsonl');
    await writeFile(late, jsonl(testEvents(4, 5)));
    await assertRefused(dir, late, undefined, /events 1 to 3 are missing/);
  }));

test('an archived segment must be complete and meet the next one exactly', () =>
  withTempDir(async (dir) => {
    const first = await storeWithEvents(dir, 0);
    const second = join(dir, 'events', '000000000003.jsonl');
    await writeFile(first, jsonl(testEvents(1, 2)) + '{"seq":3');
    await writeFile(second, jsonl(testEvents(3, 4)));
    await assertRefused(dir, first, 3, /incomplete/);
    await writeFile(first, jsonl(testEvents(1, 1)));
    await assertRefused(dir, second, undefined, /named for seq 3, but the previous segment ends at seq 1/);
  }));
