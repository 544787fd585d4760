// The diff summary a BuildArtifact carries (seed 001), read from a real git worktree: edits
// committed or not, a rename under its new path, a binary file without line counts, new files git
// does not track yet, and no answer where git cannot tell.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { diffSummaryOf } from '../../../server/plane/repository/diff-summary.js';
import { git, makeRepo } from '../../support/git-repo.js';
import { removeHome } from '../../support/plane-process.js';

test('what changed since the start commit: committed and uncommitted edits, a rename, a binary file, untracked files', async (t) => {
  const repo = makeRepo({ 'src/a.ts': 'one\ntwo\n', 'src/old name.ts': 'x\n', 'logo.png': '\u0000\u0001' });
  t.after(() => removeHome(repo));
  const start = git(repo, 'rev-parse', 'HEAD');
  writeFileSync(join(repo, 'src/a.ts'), 'one\n2\nthree\n');
  git(repo, 'mv', 'src/old name.ts', 'src/new name.ts');
  git(repo, 'commit', '-q', '-am', 'rename');
  writeFileSync(join(repo, 'logo.png'), '\u0000\u0002\u0003');
  writeFileSync(join(repo, 'notes.md'), 'new\n');
  const summary = await diffSummaryOf(repo, start);
  assert.deepEqual(summary, {
    since: start,
    files: [
      { path: 'logo.png' },
      { path: 'src/a.ts', added: 2, removed: 1 },
      { path: 'src/new name.ts', added: 0, removed: 0 },
      { path: 'notes.md', untracked: true },
    ],
    more: 0,
  });
});

test('more than 200 changed files: 200 listed, the rest counted; an unknown commit or no repository: no summary', async (t) => {
  const repo = makeRepo({ 'README.md': '# r\n' });
  t.after(() => removeHome(repo));
  const start = git(repo, 'rev-parse', 'HEAD');
  for (let n = 0; n < 205; n++) writeFileSync(join(repo, `f${n}.txt`), `${n}\n`);
  const summary = await diffSummaryOf(repo, start);
  assert.equal(summary?.files.length, 200);
  assert.equal(summary?.more, 5);
  assert.equal(await diffSummaryOf(repo, 'f'.repeat(40)), undefined, 'a commit the repository does not have');
  rmSync(join(repo, '.git'), { recursive: true });
  assert.equal(await diffSummaryOf(repo, start), undefined, 'not a repository');
});
