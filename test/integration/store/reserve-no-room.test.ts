// Near a full disk (here: a file size limit, which fails writes the same way) the zeros reserved
// ahead of the log's records may not fit where the records still do: the records must still be
// acknowledged, and a store must still open with less room than a whole reserve. Once the records
// themselves no longer fit, closing the store must still let go of its file.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { RESERVE_BYTES } from '../../../server/store/event-log.js';
import { recover, withTempDir } from '../../support/store-fixtures.js';

const FIXTURES = fileURLToPath(new URL('../../support/store-fixtures.js', import.meta.url));
const NOTE_BYTES = 1000;

/**
 * Appends ~1 KB events one at a time under `ulimit -f limitKb` until one fails, then closes the
 * store; returns how many were acknowledged, why it stopped, and how many segment files it still holds open.
 */
async function appendUntilFull(dir: string, limitKb: number): Promise<{ acked: number; stoppedBy: string; segmentsOpen: number }> {
  const script = `
    const { createTestStore, testEvents } = await import(${JSON.stringify(FIXTURES)});
    const store = createTestStore(${JSON.stringify(dir)});
    let acked = 0;
    let stoppedBy = 'nothing';
    try {
      await store.open();
      for (let seq = 1; seq <= 100000; seq++) {
        await store.append(testEvents(seq, seq).map((event) => ({ ...event, note: 'n'.repeat(${NOTE_BYTES}) })));
        acked = seq;
      }
    } catch (error) {
      stoppedBy = error.cause?.code ?? error.code ?? error.message;
    }
    await store.close().catch(() => undefined); // refused after the failed write, but must let go of the file
    const { readdirSync, readlinkSync } = await import('node:fs');
    const segmentsOpen = readdirSync('/proc/self/fd').filter((fd) => { try { return readlinkSync('/proc/self/fd/' + fd).endsWith('.jsonl'); } catch { return false; } }).length;
    console.log(JSON.stringify({ acked, stoppedBy, segmentsOpen }));
    process.exit(0);`;
  const { stdout } = await promisify(execFile)('bash', ['-c', `ulimit -f ${limitKb} && exec "$0" --input-type=module -e "$1"`, process.execPath, script]);
  return JSON.parse(stdout) as { acked: number; stoppedBy: string; segmentsOpen: number };
}

for (const [name, limitKb] of [
  ['a reserve that no longer fits', (RESERVE_BYTES * 1.5) / 1024],
  ['a store that opens with less room than one reserve', RESERVE_BYTES / 2 / 1024],
] as const) {
  test(`near a size limit, records are written without a reserve until they no longer fit themselves (${name})`, () =>
    withTempDir(async (dir) => {
      const { acked, stoppedBy, segmentsOpen } = await appendUntilFull(dir, limitKb);
      assert.equal(stoppedBy, 'EFBIG', 'appends stop only when the records themselves hit the limit');
      assert.equal(segmentsOpen, 0, 'closing the store after the failed write released the segment file');
      const recordBytes = NOTE_BYTES + 60;
      assert.ok(acked * recordBytes > limitKb * 1024 * 0.95, `${acked} records acknowledged: the room up to the limit was used, not given up to a reserve`);
      const recovered = await recover(dir);
      assert.ok(recovered.tail.length >= acked, `every acknowledged record is recovered (${recovered.tail.length} of ${acked})`);
    }));
}
