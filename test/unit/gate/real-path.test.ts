import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { realPath } from '../../../server/gate/real-path.js';
import { analyzeShell } from '../../../server/gate/shell-analysis.js';
import { concreteWrites } from '../../../server/gate/shell-targets.js';
import { removeHome, tempHome } from '../../support/plane-process.js';

describe('real paths: `..` after a symbolic link is read as the kernel reads it', () => {
  const root = realpathSync(tempHome('fleet-real-path-'));
  mkdirSync(join(root, 'mine'));
  mkdirSync(join(root, 'theirs/deep'), { recursive: true });
  writeFileSync(join(root, 'theirs/x.ts'), 'x');
  // mine/deep leads to theirs/deep: mine/deep/.. is theirs, not mine.
  symlinkSync('../theirs/deep', join(root, 'mine/deep'));
  after(() => removeHome(root));

  test('a file path: the parent of the folder the link leads to', () => {
    assert.equal(realPath(`${root}/mine/deep/../x.ts`), join(root, 'theirs/x.ts'));
    assert.equal(realPath(`${root}/mine/deep/../new.ts`), join(root, 'theirs/new.ts'), 'a file not there yet');
    assert.equal(realPath(`${root}/mine/./sub/../a.ts`), join(root, 'mine/a.ts'), 'a folder not there: lexically, as the write would fail otherwise');
  });

  test('a shell write through the link and up', () => {
    const writes = analyzeShell('echo x > mine/deep/../x.ts; cd mine || exit; rm deep/../x.ts', root, {}).writes;
    assert.deepEqual(concreteWrites(writes).map((check) => check.kind === 'file' && check.path), [join(root, 'theirs/x.ts'), join(root, 'theirs/x.ts')]);
  });
});
