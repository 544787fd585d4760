import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ChangeLog } from '../../../server/plane/worktree-watcher/change-log.js';
import { DirectoryTree } from '../../../server/plane/worktree-watcher/directory-tree.js';
import { PerSecondCap } from '../../../server/plane/worktree-watcher/per-second-cap.js';
import { removeHome, tempHome } from '../../support/plane-process.js';

describe('change log: what changed since a mark', () => {
  test('the latest change of each path after the mark, in order; nothing forgotten is not truncated', () => {
    const log = new ChangeLog(100, 0);
    for (const [mark, path, viaGit] of [[1, 'a', false], [2, 'b', true], [3, 'a', false], [4, 'c', false]] as const) log.add({ mark, path, viaGit });
    assert.deepEqual(log.since(1, 10), { changes: [{ mark: 2, path: 'b', viaGit: true }, { mark: 3, path: 'a', viaGit: false }, { mark: 4, path: 'c', viaGit: false }], truncated: false });
    assert.deepEqual(log.since(4, 10), { changes: [], truncated: false });
    assert.equal(log.since(0, 2).truncated, true, 'more paths than the limit');
  });

  test('past its capacity the oldest are forgotten, and asking about them says truncated', () => {
    const log = new ChangeLog(8, 0);
    for (let mark = 1; mark <= 10; mark++) log.add({ mark, path: `p${mark}`, viaGit: false });
    assert.deepEqual(log.since(0, 100).truncated, true);
    assert.deepEqual(log.since(2, 100), { changes: [3, 4, 5, 6, 7, 8, 9, 10].map((mark) => ({ mark, path: `p${mark}`, viaGit: false })), truncated: false });
  });

  test('a mark from before the worktree was watched cannot be answered for', () => {
    assert.equal(new ChangeLog(8, 5).since(3, 100).truncated, true);
  });
});

describe('directory tree: one watch per directory, bounded', () => {
  /** Runs `body` against a watched temp tree, resolving `seen(path)` when the tree reports `path`. */
  async function withTree(setup: (root: string) => void, options: { maxDirectories?: number; ignored?: Set<string> }, body: (root: string, tree: DirectoryTree, seen: (path: string) => Promise<string[]>, logs: string[]) => Promise<void>) {
    const root = tempHome('fleet-tree-');
    setup(root);
    const changes: string[] = [];
    const logs: string[] = [];
    let wake: (() => void) | undefined;
    const tree = new DirectoryTree({
      root,
      maxDirectories: options.maxDirectories ?? 100,
      onChange: (path) => {
        changes.push(path);
        wake?.();
      },
      ignored: () => Promise.resolve(new Set()),
      log: (message) => logs.push(message),
    });
    const seen = (path: string) =>
      new Promise<string[]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${path} was not reported; saw ${changes.join(', ')}`)), 5000);
        wake = () => {
          if (!changes.includes(path)) return;
          clearTimeout(timer);
          resolve([...changes]);
        };
        wake();
      });
    try {
      await tree.start(options.ignored ?? new Set());
      await body(root, tree, seen, logs);
    } finally {
      tree.close();
      removeHome(root);
    }
  }

  test('past the cap the rest of the tree goes unwatched, and the log says so once', async () => {
    await withTree(
      (root) => {
        for (const dir of ['a', 'b', 'c', 'd', 'e']) mkdirSync(join(root, dir, 'deeper'), { recursive: true });
      },
      { maxDirectories: 3 },
      async (_root, tree, _seen, logs) => {
        assert.equal(tree.size, 3);
        assert.equal(logs.length, 1);
        assert.match(logs[0]!, /more than 3 directories; the rest are not watched/);
      },
    );
  });

  test('a directory created later is watched, and files already in it are reported (mkdir -p then write)', async () => {
    await withTree(
      () => undefined,
      {},
      async (root, _tree, seen) => {
        mkdirSync(join(root, 'src/new/deep'), { recursive: true });
        writeFileSync(join(root, 'src/new/deep/f.ts'), 'x');
        await seen('src/new/deep/f.ts');
        writeFileSync(join(root, 'src/new/deep/g.ts'), 'later');
        await seen('src/new/deep/g.ts');
      },
    );
  });

  test('.git and ignored directories are not watched', async () => {
    await withTree(
      (root) => {
        mkdirSync(join(root, '.git'));
        mkdirSync(join(root, 'build'));
      },
      { ignored: new Set(['build']) },
      async (root, tree, seen) => {
        assert.equal(tree.size, 1, 'only the root');
        writeFileSync(join(root, '.git', 'index'), 'x');
        writeFileSync(join(root, 'build', 'out.js'), 'x');
        writeFileSync(join(root, 'after.txt'), 'x'); // reported after anything written before it
        assert.deepEqual(await seen('after.txt'), ['after.txt']);
      },
    );
  });
});

test('per-second cap: the limit, one report when passed, a new second starts over', () => {
  let reports = 0;
  const cap = new PerSecondCap(2, () => reports++);
  assert.deepEqual([cap.take(0), cap.take(10), cap.take(20), cap.take(30)], [true, true, false, false]);
  assert.equal(reports, 1);
  assert.equal(cap.take(1000), true);
  // full() says whether a take would be refused, without taking.
  assert.deepEqual([cap.full(1001), cap.take(1002), cap.full(1003), cap.full(2002)], [false, true, true, false]);
  assert.equal(reports, 1);
});
