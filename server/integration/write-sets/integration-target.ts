import { defaultBranchRef } from '../git/refs.js';

/**
 * The ref an agent's work is integrated into, read through this one function: the repository's
 * default branch (origin/HEAD when set, else main, else master). The train's per-repository
 * configuration (`fleet integrate configure`) takes its place here.
 */
export function integrationTarget(worktree: string): Promise<string | undefined> {
  return defaultBranchRef(worktree);
}
