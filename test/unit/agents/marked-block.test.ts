import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findBlock, removeBlock, upsertBlock } from '../../../server/hooks/marked-block.js';

const markers = { begin: '# >>> fleet >>>', end: '# <<< fleet <<<' };

describe('marked blocks in files someone else owns', () => {
  const originals = ['', '# title\n', '# title\n\nsome text\n', 'no trailing newline', '#!/bin/sh\nnpm test\n', '\n\n'];

  for (const original of originals) {
    test(`bottom: add, add again, remove restores ${JSON.stringify(original)}`, () => {
      const once = upsertBlock(original, markers, 'line one\nline two');
      assert.equal(upsertBlock(once, markers, 'line one\nline two'), once, 'idempotent');
      assert.ok(once.startsWith(original), 'the original content comes first, untouched');
      const removed = removeBlock(once, markers);
      assert.equal(removed.found, true);
      assert.equal(removed.content, original === 'no trailing newline' ? `${original}\n` : original);
    });

    test(`top: add, add again, remove restores ${JSON.stringify(original)}`, () => {
      const once = upsertBlock(original, markers, 'check', 'top');
      assert.equal(upsertBlock(once, markers, 'check', 'top'), once);
      assert.equal(removeBlock(once, markers).content, original);
    });
  }

  test('top placement keeps a shebang on the first line', () => {
    const text = upsertBlock('#!/bin/sh\nnpm test\n', markers, 'fleet hook git-pre-commit', 'top');
    assert.equal(text, '#!/bin/sh\n# >>> fleet >>>\nfleet hook git-pre-commit\n# <<< fleet <<<\nnpm test\n');
  });

  test('a changed body replaces the block in place, leaving the text around it', () => {
    const first = upsertBlock('before\n', markers, 'v1');
    const withAfter = `${first}after\n`;
    const second = upsertBlock(withAfter, markers, 'v2');
    assert.equal(second, 'before\n\n# >>> fleet >>>\nv2\n# <<< fleet <<<\nafter\n');
    assert.equal(removeBlock(second, markers).content, 'before\n\nafter\n');
  });

  test('a begin marker without its end is not a block', () => {
    assert.equal(findBlock('# >>> fleet >>>\nstray\n', markers), undefined);
    assert.deepEqual(removeBlock('x\n', markers), { content: 'x\n', found: false });
  });
});
