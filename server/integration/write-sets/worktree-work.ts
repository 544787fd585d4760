import { MAX_WRITE_SET_PATHS } from '../../../contracts/index.js';
import { changedPaths } from '../git/changed-paths.js';
import { currentBranch, mergeBase, resolveCommit } from '../git/refs.js';
import { snapshotWorktree, type WorktreeSnapshot } from '../git/worktree-snapshot.js';
import { shortBranch } from './short-branch.js';

/** A worktree's work against its target, or why it has none to land. */
export type WorktreeWork =
  | {
      kind: 'work';
      /** The branch checked out (`refs/heads/…`); undefined on a detached HEAD. */
      branch: string | undefined;
      snapshot: WorktreeSnapshot;
      targetCommit: string;
      /** The merge-base of HEAD and the target. */
      base: string;
      /** Sorted; at most MAX_WRITE_SET_PATHS. */
      paths: string[];
      truncated: boolean;
    }
  | { kind: 'none'; why: string };

/**
 * What a worktree's work changes against `target` (a full ref), DESIGN §14: the paths changed
 * merge-base..HEAD (they land even if the worktree has since put them back) plus those edited and
 * not committed yet, read through a snapshot, never the agent's index. The one computation behind
 * an agent's live write-set (the forecast) and an item's at complete (the claims it keeps until it
 * lands). None on the target itself (a shared checkout lands by its commits on the target), on an
 * unborn HEAD, or for history unrelated to the target.
 */
export async function worktreeWork(worktree: string, target: string): Promise<WorktreeWork> {
  const branch = await currentBranch(worktree);
  if (branch !== undefined && shortBranch(branch) === shortBranch(target)) return { kind: 'none', why: `it works on the target ${shortBranch(target)} itself` };
  const [targetCommit, snapshot] = await Promise.all([resolveCommit(worktree, target), snapshotWorktree(worktree)]);
  if (!snapshot || targetCommit === undefined) return { kind: 'none', why: 'its HEAD names no commit (unborn, or its branch was deleted)' };
  const base = await mergeBase(worktree, targetCommit, snapshot.head);
  if (base === undefined) return { kind: 'none', why: `its history is unrelated to ${target}` };
  const committed = await changedPaths(worktree, base, snapshot.head, MAX_WRITE_SET_PATHS);
  const edited = snapshot.dirty ? await changedPaths(worktree, snapshot.head, snapshot.commit, MAX_WRITE_SET_PATHS) : { paths: [], truncated: false };
  const paths = [...new Set([...committed.paths, ...edited.paths])].sort();
  return { kind: 'work', branch, snapshot, targetCommit, base, paths: paths.slice(0, MAX_WRITE_SET_PATHS), truncated: committed.truncated || edited.truncated || paths.length > MAX_WRITE_SET_PATHS };
}
