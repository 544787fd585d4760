import type { WorkIntegration } from '../../../contracts/index.js';
import { defaultBranchRef } from '../git/refs.js';
import { shortBranch } from '../write-sets/short-branch.js';
import { worktreeWork } from '../write-sets/worktree-work.js';

/** The target a repository's work lands on: the configured branch, else its default branch. */
export async function targetBranch(repository: string, configured: string | undefined): Promise<string | undefined> {
  if (configured !== undefined) return configured;
  const ref = await defaultBranchRef(repository);
  return ref === undefined ? undefined : shortBranch(ref);
}

/**
 * The branch a worktree works on, when it is a branch of its own (DESIGN §16: checked out, and not
 * the target): its commit, the target, and its write-set (worktreeWork), listed unless too many
 * paths changed (the item's claims are then held whole). Undefined in a shared checkout (on the
 * target itself), on a detached HEAD, or when git cannot tell.
 */
export async function branchOfItsOwn(worktree: string, repository: string, configuredTarget: string | undefined): Promise<WorkIntegration | undefined> {
  try {
    const target = await targetBranch(worktree, configuredTarget);
    if (target === undefined) return undefined;
    const work = await worktreeWork(worktree, `refs/heads/${target}`);
    if (work.kind === 'none' || work.branch === undefined) return undefined;
    return { branch: shortBranch(work.branch), commit: work.snapshot.head, target, repository, ...(!work.truncated && { writeSet: work.paths }), base: work.base };
  } catch {
    // git could not answer in time: the item is treated as a shared checkout's (claims released at complete).
    return undefined;
  }
}
