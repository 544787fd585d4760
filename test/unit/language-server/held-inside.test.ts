import assert from 'node:assert/strict';
import { test } from 'node:test';
import { foldersAbove, HeldInside } from '../../../server/language-server/held-inside.js';

test('a pattern lies inside every folder above its first glob segment', () => {
  assert.deepEqual(foldersAbove('src/parser/**'), ['', 'src', 'src/parser']);
  assert.deepEqual(foldersAbove('src/a.ts'), ['', 'src']);
  assert.deepEqual(foldersAbove('src/*/x.ts'), ['', 'src']);
  assert.deepEqual(foldersAbove('**/*.md'), ['']);
  assert.deepEqual(foldersAbove('README.md'), ['']);
});

test('counts follow claims added and removed, per scope', () => {
  const inside = new HeldInside();
  inside.add('s', 'src/parser/a.ts');
  inside.add('s', 'src/lexer/**');
  inside.add('s', 'src/x.ts');
  inside.add('t', 'src/y.ts');
  assert.equal(inside.count('s', 'src'), 3, '3 held inside src');
  assert.equal(inside.count('s', 'src/parser'), 1);
  assert.equal(inside.count('s', ''), 3);
  assert.equal(inside.count('t', 'src'), 1, 'another repository counts apart');
  inside.remove('s', 'src/lexer/**');
  assert.equal(inside.count('s', 'src'), 2);
  assert.equal(inside.count('s', 'src/lexer'), 0);
});
