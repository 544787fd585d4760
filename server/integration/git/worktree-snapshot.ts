import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { GIT_LIMITS } from './limits.js';
import { gitOutput } from './run-git.js';
import { resolveCommit, resolveTree } from './refs.js';

export interface WorktreeSnapshot {
  /** The worktree's HEAD commit. */
  head: string;
  /** A commit of the worktree as it is on disk (tracked edits and untracked, unignored files); HEAD itself when nothing differs. */
  commit: string;
  /** Whether the worktree differs from HEAD. */
  dirty: boolean;
}

/** A fixed identity and date: the same worktree content on the same HEAD is the same snapshot commit, so an unchanged worktree is no new write-set. */
const SNAPSHOT_IDENTITY = {
  GIT_AUTHOR_NAME: 'fleet plane',
  GIT_AUTHOR_EMAIL: 'fleet-plane@localhost',
  GIT_AUTHOR_DATE: '2000-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'fleet plane',
  GIT_COMMITTER_EMAIL: 'fleet-plane@localhost',
  GIT_COMMITTER_DATE: '2000-01-01T00:00:00Z',
};

/**
 * Makes a commit of a worktree as it is on disk without touching it: like `git stash create`, but
 * through a temporary GIT_INDEX_FILE (a copy of the agent's index, so unchanged files are not
 * re-hashed) and with untracked files included. The agent's index, its index.lock and its files are
 * never written: an agent in the middle of a commit is not disturbed and does not disturb this.
 * Undefined for a worktree without a commit yet.
 */
export async function snapshotWorktree(worktree: string): Promise<WorktreeSnapshot | undefined> {
  const head = await resolveCommit(worktree, 'HEAD');
  if (head === undefined) return undefined;
  const quick = { timeoutMs: GIT_LIMITS.quickMs, maxOutputBytes: GIT_LIMITS.quickBytes };
  const indexPath = (await gitOutput(worktree, ['rev-parse', '--git-path', 'index'], quick)).stdout.toString().trim();
  const agentIndex = isAbsolute(indexPath) ? indexPath : resolve(worktree, indexPath);
  const scratch = await mkdtemp(join(tmpdir(), 'fleet-snapshot-'));
  try {
    const env = { GIT_INDEX_FILE: join(scratch, 'index'), ...SNAPSHOT_IDENTITY };
    const heavy = { timeoutMs: GIT_LIMITS.heavyMs, maxOutputBytes: GIT_LIMITS.quickBytes, env };
    // git replaces its index by rename, so the copy is always a whole index (the last one written).
    const copied = await copyFile(agentIndex, env.GIT_INDEX_FILE).then(() => true, () => false);
    if (!copied) await gitOutput(worktree, ['read-tree', '--end-of-options', head], heavy);
    await gitOutput(worktree, ['add', '--all', '--', ':/'], heavy);
    const tree = (await gitOutput(worktree, ['write-tree'], heavy)).stdout.toString().trim();
    if (tree === (await resolveTree(worktree, head))) return { head, commit: head, dirty: false };
    // Both are commit and tree ids read from git above, never names a user chose.
    const commit = (await gitOutput(worktree, ['commit-tree', '-p', head, '-m', 'fleet: write-set snapshot of a worktree', tree], heavy)).stdout.toString().trim();
    return { head, commit, dirty: true };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
