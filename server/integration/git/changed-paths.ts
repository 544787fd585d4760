import { GIT_LIMITS } from './limits.js';
import { GitFailure, nulFields, runGit } from './run-git.js';

export interface PathListing {
  paths: string[];
  /** More paths changed than the cap (or git's output bound) allowed: `paths` is a prefix. */
  truncated: boolean;
}

/**
 * The paths that differ between two commits (tree-wise: added, modified, deleted, both sides of a
 * rename, a submodule's gitlink), at most `cap` of them. Binary and huge files cost one name each:
 * no content is diffed (no textconv, no external diff).
 */
export async function changedPaths(cwd: string, from: string, to: string, cap: number): Promise<PathListing> {
  const args = ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', '--ignore-submodules=none', '--end-of-options', from, to];
  const run = await runGit(cwd, args, { timeoutMs: GIT_LIMITS.heavyMs, maxOutputBytes: GIT_LIMITS.listingBytes });
  if (run.code !== 0 && !run.truncated) throw new GitFailure(args, run);
  // A listing cut by the output bound ends in a partial name: drop it.
  const fields = run.truncated ? nulFields(run.stdout).slice(0, -1) : nulFields(run.stdout);
  return { paths: fields.slice(0, cap), truncated: run.truncated || fields.length > cap };
}
