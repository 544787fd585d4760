// A write(2) that takes less than it was given (here: a file size limit, as a nearly full disk
// would) must never leave a short file committed in place of the old one.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { withTempDir } from '../../support/store-fixtures.js';

const DURABLE_WRITE = fileURLToPath(new URL('../../../server/store/durable-write.js', import.meta.url));
const LIMIT_KB = 100;

test('a staged file cut short by a file size limit is refused, and the old file stays', () =>
  withTempDir(async (dir) => {
    const path = join(dir, 'snapshot.json');
    await writeFile(path, '{"old":true}\n');
    // Just over the limit, so that the last write is the one cut short: nothing after it would fail.
    const script = `
      const { writeChunksDurably } = await import(${JSON.stringify(DURABLE_WRITE)});
      try {
        await writeChunksDurably(${JSON.stringify(path)}, (write) => { for (let i = 0; i < 1030; i++) write('x'.repeat(100)); });
        console.log('committed');
      } catch (error) {
        console.log('refused ' + error.code);
      }`;
    const { stdout } = await promisify(execFile)('bash', ['-c', `ulimit -f ${LIMIT_KB} && exec "$0" --input-type=module -e "$1"`, process.execPath, script]);
    assert.equal(stdout.trim(), 'refused EFBIG');
    assert.equal(await readFile(path, 'utf8'), '{"old":true}\n', 'the old content is untouched');
    assert.deepEqual(await readdir(dir), ['snapshot.json'], 'no temp file is left behind');
  }));
