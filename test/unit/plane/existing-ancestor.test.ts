import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { existingAncestor } from '../../../server/plane/repository/existing-ancestor.js';

test('existingAncestor splits a path into its deepest existing part and the missing segments', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-ancestor-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'a', 'b'), { recursive: true });
  writeFileSync(join(dir, 'a', 'file'), '');
  assert.deepEqual(existingAncestor(join(dir, 'a', 'b')), { existing: join(dir, 'a', 'b'), missing: [] });
  assert.deepEqual(existingAncestor(join(dir, 'a', 'b', 'new', 'deeper.ts')), { existing: join(dir, 'a', 'b'), missing: ['new', 'deeper.ts'] });
  assert.deepEqual(existingAncestor(join(dir, 'a', 'file', 'x')), { existing: join(dir, 'a', 'file'), missing: ['x'] });
  assert.deepEqual(existingAncestor('/nonexistent-fleet-dir/x'), { existing: '/', missing: ['nonexistent-fleet-dir', 'x'] });
  assert.deepEqual(existingAncestor('/'), { existing: '/', missing: [] });
});

test('a path of thousands of missing segments splits at its root', () => {
  const { existing, missing } = existingAncestor(`/nonexistent-fleet-dir/${'a/'.repeat(20_000)}end`);
  assert.equal(existing, '/');
  assert.equal(missing.length, 20_002);
});
