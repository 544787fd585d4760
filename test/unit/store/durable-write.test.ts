import assert from 'node:assert/strict';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { Low } from 'lowdb';
import { z } from 'zod';
import { DurableJsonFile } from '../../../server/store/durable-json-file.js';
import { removeStaleTempFiles, writeFileDurably } from '../../../server/store/durable-write.js';
import { StoreCorruptError } from '../../../server/store/store.js';
import { withTempDir } from '../../support/store-fixtures.js';

test('writeFileDurably replaces the file, applies the mode and leaves no temp file', () =>
  withTempDir(async (dir) => {
    const path = join(dir, 'plane.json');
    await writeFileDurably(path, 'old');
    await writeFileDurably(path, '{"port":1}', 0o640);
    assert.equal(await readFile(path, 'utf8'), '{"port":1}');
    assert.equal((await stat(path)).mode & 0o777, 0o640 & ~process.umask());
    assert.deepEqual(await readdir(dir), ['plane.json']);
  }));

test('removeStaleTempFiles removes a crashed writer’s temp files and nothing else', () =>
  withTempDir(async (dir) => {
    const path = join(dir, 'ledger.json');
    await writeFile(path, '{}');
    await writeFile(join(dir, '.ledger.json.999-abc.tmp'), '{"half');
    await writeFile(join(dir, '.other.json.999-abc.tmp'), 'not ours');
    await removeStaleTempFiles(path);
    assert.deepEqual((await readdir(dir)).sort(), ['.other.json.999-abc.tmp', 'ledger.json']);
  }));

const ledgerSchema = z.object({ agents: z.array(z.string()) });

test('DurableJsonFile backs lowdb: round trip, last write wins, missing file reads as null', () =>
  withTempDir(async (dir) => {
    const path = join(dir, 'ledger.json');
    const adapter = new DurableJsonFile(path, ledgerSchema);
    assert.equal(await adapter.read(), null);
    const db = new Low(adapter, { agents: [] as string[] });
    await Promise.all([adapter.write({ agents: ['first'] }), db.update((data) => data.agents.push('ATLAS'))]);
    const reread = new Low(new DurableJsonFile(path, ledgerSchema), { agents: [] as string[] });
    await reread.read();
    assert.deepEqual(reread.data, { agents: ['ATLAS'] });
  }));

test('DurableJsonFile refuses unparsable or schema-invalid content, naming the file', () =>
  withTempDir(async (dir) => {
    const path = join(dir, 'ledger.json');
    const adapter = new DurableJsonFile(path, ledgerSchema);
    for (const content of ['{"agents": [', '{"agents": "ATLAS"}']) {
      await writeFile(path, content);
      await assert.rejects(adapter.read(), (error: unknown) => {
        assert.ok(error instanceof StoreCorruptError);
        assert.equal(error.file, path);
        assert.match(error.message, /ledger\.json.*(not valid JSON|does not match its schema).*move the file aside/s);
        return true;
      });
    }
  }));
