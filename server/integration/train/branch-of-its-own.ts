import type { WorkIntegration } from '../../../contracts/index.js';
import { changedPaths } from '../git/changed-paths.js';
import { currentBranch, defaultBranchRef, mergeBase, resolveCommit } from '../git/refs.js';
import { snapshotWorktree } from '../git/worktree-snapshot.js';

/** Beyond this many changed paths the write-set is not listed: the item's claims are held whole. */
export const MAX_WRITE_SET_PATHS = 2_000;

/** A short branch name (`main`) from a ref: a local branch, or a remote-tracking one (`refs/remotes/origin/main`). */
export function shortBranch(ref: string): string {
  if (ref.startsWith('refs/heads/')) return ref.slice('refs/heads/'.length);
  const remote = /^refs\/remotes\/[^/]+\/(.+)$/.exec(ref);
  return remote ? remote[1]! : ref;
}

/** The target a repository's work lands on: the configured branch, else its default branch. */
export async function targetBranch(repository: string, configured: string | undefined): Promise<string | undefined> {
  if (configured !== undefined) return configured;
  const ref = await defaultBranchRef(repository);
  return ref === undefined ? undefined : shortBranch(ref);
}

/**
 * The branch a worktree works on, when it is a branch of its own (DESIGN §16: checked out, and not
 * the target): its commit, the target, and its write-set, the paths changed merge-base..HEAD plus
 * those edited and not committed yet (read through a snapshot, never the agent's index). Undefined
 * in a shared checkout (on the target itself), on a detached HEAD, or when git cannot tell.
 */
export async function branchOfItsOwn(worktree: string, repository: string, configuredTarget: string | undefined): Promise<WorkIntegration | undefined> {
  try {
    const branchRef = await currentBranch(worktree);
    const target = await targetBranch(worktree, configuredTarget);
    if (branchRef === undefined || target === undefined || shortBranch(branchRef) === target) return undefined;
    const [head, targetHead] = await Promise.all([resolveCommit(worktree, 'HEAD'), resolveCommit(worktree, `refs/heads/${target}`)]);
    if (head === undefined || targetHead === undefined) return undefined;
    const base = await mergeBase(worktree, targetHead, head);
    const committed = base === undefined ? undefined : await changedPaths(worktree, base, head, MAX_WRITE_SET_PATHS);
    const snapshot = await snapshotWorktree(worktree);
    const edited = snapshot?.dirty ? await changedPaths(worktree, head, snapshot.commit, MAX_WRITE_SET_PATHS) : { paths: [], truncated: false };
    const paths = new Set([...(committed?.paths ?? []), ...edited.paths]);
    const listed = committed !== undefined && !committed.truncated && !edited.truncated && paths.size <= MAX_WRITE_SET_PATHS;
    return { branch: shortBranch(branchRef), commit: head, target, repository, ...(listed && { writeSet: [...paths].sort() }), ...(base !== undefined && { base }) };
  } catch {
    // git could not answer in time: the item is treated as a shared checkout's (claims released at complete).
    return undefined;
  }
}
