import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { patchedPaths } from '../../../server/hooks/codex-patch-paths.js';

describe("the paths a Codex apply_patch writes, read from the patch envelope", () => {
  test('add, update, delete, and both ends of a move, each once', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: src/new.ts',
      '+export const a = 1;',
      '*** Update File: src/old.ts',
      '*** Move to: lib/moved.ts',
      '@@ function f()',
      '-  return 1;',
      '+  return 2;',
      '*** Delete File: docs/gone.md',
      '*** Update File: src/new.ts',
      '@@',
      '+more',
      '*** End Patch',
    ].join('\n');
    assert.deepEqual(patchedPaths(patch), ['src/new.ts', 'src/old.ts', 'lib/moved.ts', 'docs/gone.md']);
  });

  test('a header-looking line inside a hunk is content, not a file; CRLF and trailing blanks are read', () => {
    const patch = '*** Begin Patch\r\n*** Update File: a b/c.ts  \r\n@@\r\n+*** Add File: not/a/file.ts\r\n- *** Delete File: nor/this.ts\r\n*** End Patch\r\n';
    assert.deepEqual(patchedPaths(patch), ['a b/c.ts']);
  });

  test('an indented header is a header: Codex trims each hunk\'s first line before reading it', () => {
    const patch = '*** Begin Patch\n  *** Add File: src/indented.ts\n+x\n\t*** Delete File: src/tabbed.ts\n*** End Patch';
    assert.deepEqual(patchedPaths(patch), ['src/indented.ts', 'src/tabbed.ts']);
  });

  test('absolute paths stay absolute; text with no envelope names nothing', () => {
    assert.deepEqual(patchedPaths('*** Begin Patch\n*** Add File: /tmp/x/y.txt\n+y\n*** End Patch'), ['/tmp/x/y.txt']);
    assert.deepEqual(patchedPaths('echo hello > file'), []);
  });
});
