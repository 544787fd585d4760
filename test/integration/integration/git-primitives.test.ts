import assert from 'node:assert/strict';
import { closeSync, openSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { changedPaths } from '../../../server/integration/git/changed-paths.js';
import { forecastMerge } from '../../../server/integration/git/merge-tree.js';
import { currentBranch, defaultBranchRef, mergeBase, resolveCommit } from '../../../server/integration/git/refs.js';
import { runGit } from '../../../server/integration/git/run-git.js';
import { snapshotWorktree } from '../../../server/integration/git/worktree-snapshot.js';
import { git, makeRepo } from '../../support/git-repo.js';
import { tempHome } from '../../support/plane-process.js';

/** A repository with a linked worktree on a branch of its own, as an isolated agent has. */
function repoWithWorktree(branch: string): { repo: string; worktree: string } {
  const repo = makeRepo({ 'src/shared.ts': 'one\ntwo\nthree\n', 'src/other.ts': 'other\n', 'README.md': '# r\n' });
  const worktree = join(tempHome('fleet-wt-'), 'agent');
  // Made by ref plumbing, so a branch named like an option can be checked out too.
  git(repo, 'update-ref', `refs/heads/${branch}`, 'main');
  git(repo, 'worktree', 'add', '-q', '--detach', worktree, 'main');
  git(worktree, 'symbolic-ref', 'HEAD', `refs/heads/${branch}`);
  return { repo, worktree };
}

describe("the plane's git primitives (server/integration/git) on real repositories", () => {
  test('a worktree snapshot includes tracked edits and untracked files, and leaves the index, its mtime and git status untouched', async () => {
    const { worktree } = repoWithWorktree('agent');
    writeFileSync(join(worktree, 'src/shared.ts'), 'one\nTWO\nthree\n');
    writeFileSync(join(worktree, 'new-file.ts'), 'new\n');
    const index = git(worktree, 'rev-parse', '--path-format=absolute', '--git-path', 'index');
    const status = git(worktree, 'status', '--porcelain'); // status refreshes the index: read its mtime after
    const before = { mtime: statSync(index).mtimeMs, status };
    const snapshot = await snapshotWorktree(worktree);
    assert.ok(snapshot?.dirty);
    assert.equal(snapshot.head, git(worktree, 'rev-parse', 'HEAD'));
    assert.deepEqual((await changedPaths(worktree, snapshot.head, snapshot.commit, 100)).paths, ['new-file.ts', 'src/shared.ts']);
    assert.equal(statSync(index).mtimeMs, before.mtime, 'the agent index is not rewritten');
    assert.equal(git(worktree, 'status', '--porcelain'), before.status, 'new-file.ts is still untracked, src/shared.ts still unstaged');
  });

  test("an index.lock the agent holds does not stop the snapshot, and is left in place", async () => {
    const { worktree } = repoWithWorktree('locked');
    writeFileSync(join(worktree, 'src/other.ts'), 'edited\n');
    const lock = git(worktree, 'rev-parse', '--path-format=absolute', '--git-path', 'index.lock');
    closeSync(openSync(lock, 'wx'));
    try {
      const snapshot = await snapshotWorktree(worktree);
      assert.ok(snapshot?.dirty);
      assert.deepEqual((await changedPaths(worktree, snapshot.head, snapshot.commit, 100)).paths, ['src/other.ts']);
      assert.ok(statSync(lock).isFile(), 'the lock is still the agent’s');
    } finally {
      unlinkSync(lock);
    }
  });

  test('a binary file and a submodule count by name in the write-set; a binary conflict is a conflict', async () => {
    const { repo, worktree } = repoWithWorktree('binary');
    const sub = makeRepo({ 'lib.txt': 'lib\n' });
    git(worktree, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'vendor/lib');
    writeFileSync(join(worktree, 'image.bin'), Buffer.from([0, 1, 2, 0, 255, 0, 7]));
    const snapshot = (await snapshotWorktree(worktree))!;
    assert.deepEqual((await changedPaths(worktree, snapshot.head, snapshot.commit, 100)).paths, ['.gitmodules', 'image.bin', 'vendor/lib']);
    git(repo, 'checkout', '-q', '-b', 'other-binary', 'main');
    writeFileSync(join(repo, 'image.bin'), Buffer.from([0, 9, 9, 0, 255, 0, 7]));
    git(repo, 'add', 'image.bin');
    git(repo, 'commit', '-q', '-m', 'other binary');
    const merged = await forecastMerge(repo, snapshot.commit, git(repo, 'rev-parse', 'HEAD'), 100);
    assert.deepEqual(merged.conflicts, ['image.bin']);
  });

  test('a clean worktree snapshots as its HEAD (no new commit)', async () => {
    const { worktree } = repoWithWorktree('clean');
    const snapshot = await snapshotWorktree(worktree);
    assert.deepEqual(snapshot, { head: git(worktree, 'rev-parse', 'HEAD'), commit: git(worktree, 'rev-parse', 'HEAD'), dirty: false });
  });

  test('merge-tree finds the conflicted paths of two branches and none for a clean pair', async () => {
    const { repo, worktree } = repoWithWorktree('left');
    writeFileSync(join(worktree, 'src/shared.ts'), 'one\nLEFT\nthree\n');
    git(worktree, 'commit', '-q', '-am', 'left');
    git(repo, 'checkout', '-q', '-b', 'right', 'main');
    writeFileSync(join(repo, 'src/shared.ts'), 'one\nRIGHT\nthree\n');
    git(repo, 'commit', '-q', '-am', 'right');
    git(repo, 'checkout', '-q', '-b', 'elsewhere', 'main');
    writeFileSync(join(repo, 'src/other.ts'), 'elsewhere\n');
    git(repo, 'commit', '-q', '-am', 'elsewhere');
    const [left, right, elsewhere] = await Promise.all(['left', 'right', 'elsewhere'].map((b) => resolveCommit(repo, `refs/heads/${b}`)));
    assert.deepEqual(await forecastMerge(repo, left!, right!, 100), { clean: false, conflicts: ['src/shared.ts'], truncated: false });
    assert.deepEqual(await forecastMerge(repo, left!, elsewhere!, 100), { clean: true, conflicts: [], truncated: false });
    assert.equal(await mergeBase(repo, left!, right!), git(repo, 'rev-parse', 'main'));
  });

  test('hostile branch names stay names: a branch called like an option resolves, and runs no option', async () => {
    const { repo, worktree } = repoWithWorktree('--output=/tmp/fleet-pwned');
    assert.equal(await currentBranch(worktree), 'refs/heads/--output=/tmp/fleet-pwned');
    assert.equal(await resolveCommit(repo, 'refs/heads/--output=/tmp/fleet-pwned'), git(repo, 'rev-parse', 'main'));
    assert.equal(await resolveCommit(repo, '--all'), undefined);
    assert.equal(await resolveCommit(repo, 'refs/heads/deleted-or-never'), undefined);
  });

  test('the default branch is origin/HEAD when set, else main; a detached HEAD has no branch', async () => {
    const { repo, worktree } = repoWithWorktree('any');
    assert.equal(await defaultBranchRef(repo), 'refs/heads/main');
    git(repo, 'update-ref', 'refs/remotes/origin/trunk', 'main');
    git(repo, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/trunk');
    assert.equal(await defaultBranchRef(repo), 'refs/remotes/origin/trunk');
    git(worktree, 'checkout', '-q', '--detach');
    assert.equal(await currentBranch(worktree), undefined);
  });

  test('bounded: a listing over the cap is cut and says so; a git that outlives its time is killed', async () => {
    const repo = makeRepo(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}.txt`, `${i}\n`])));
    const first = git(repo, 'rev-list', '--max-parents=0', 'HEAD');
    // git knows the empty tree without it being written.
    const empty = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
    const listing = await changedPaths(repo, empty, first, 10);
    assert.equal(listing.paths.length, 10);
    assert.equal(listing.truncated, true);
    const slow = await runGit(repo, ['-c', 'alias.slow=!sleep 5', 'slow'], { timeoutMs: 200, maxOutputBytes: 100 });
    assert.equal(slow.timedOut, true);
    assert.equal(slow.code, null);
  });
});
