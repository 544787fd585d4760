import { GIT_LIMITS } from './limits.js';
import { GitFailure, nulFields, runGit } from './run-git.js';

export interface MergeForecast {
  clean: boolean;
  /** Paths the three-way merge could not resolve (content, add/add, modify/delete, …), sorted, at most the cap. */
  conflicts: string[];
  truncated: boolean;
}

/**
 * A real three-way merge of two commits without a worktree or an index (`git merge-tree
 * --write-tree`, git ≥ 2.38): the objects it writes are unreachable and pruned by gc. Throws a
 * GitFailure when git cannot merge them at all (unrelated histories, a missing object, a timeout).
 */
export async function forecastMerge(cwd: string, ours: string, theirs: string, cap: number, timeoutMs: number = GIT_LIMITS.heavyMs): Promise<MergeForecast> {
  const args = ['merge-tree', '--write-tree', '--name-only', '-z', '--no-messages', '--end-of-options', ours, theirs];
  const run = await runGit(cwd, args, { timeoutMs, maxOutputBytes: GIT_LIMITS.listingBytes });
  // Exit 0: clean; 1: conflicts; anything else: git could not merge.
  if (run.code !== 0 && run.code !== 1 && !run.truncated) throw new GitFailure(args, run);
  // Output: the merged tree's id, then each conflicted path (NUL-terminated).
  const fields = nulFields(run.stdout).slice(1);
  const complete = run.truncated ? fields.slice(0, -1) : fields;
  const conflicts = [...new Set(complete)].sort();
  return { clean: run.code === 0, conflicts: conflicts.slice(0, cap), truncated: run.truncated || conflicts.length > cap };
}
