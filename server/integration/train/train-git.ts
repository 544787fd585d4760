import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { GIT_LIMITS } from '../git/limits.js';
import { gitOutput, nulFields, runGit, type GitRun } from '../git/run-git.js';

/**
 * The train's own git steps (the primitives it needs beyond server/integration/git/): its scratch
 * worktree, merges in it, the compare-and-swap of the target, and what it must refuse.
 */

const quick = { timeoutMs: GIT_LIMITS.quickMs, maxOutputBytes: GIT_LIMITS.quickBytes };
const heavy = { timeoutMs: GIT_LIMITS.heavyMs, maxOutputBytes: GIT_LIMITS.listingBytes };

/** Who the train's merge commits are by; hooks are off in its worktree (a merge is no agent's write). */
const TRAIN_GIT = ['-c', 'user.name=fleet train', '-c', 'user.email=fleet-train@localhost', '-c', 'core.hooksPath=/dev/null', '-c', 'merge.autoStash=false'];

/** Whether `name` is a branch name git accepts (`refs/heads/<name>`): hostile names are refused before any use. */
export async function isBranchName(cwd: string, name: string): Promise<boolean> {
  if (name.startsWith('-')) return false;
  const run = await runGit(cwd, ['check-ref-format', `refs/heads/${name}`], quick);
  return run.code === 0;
}

/**
 * The train's scratch worktree, created once (detached, so it holds no branch) and kept between
 * builds so a build's dependencies stay; reset to `base` for each batch (ignored files are kept).
 * One that cannot be reset (a git killed together with the plane left its index.lock behind) is
 * the train's own: it is made again, or the train would stop there for good.
 */
export async function prepareScratch(repository: string, path: string, base: string): Promise<void> {
  if (existsSync(path)) {
    if (await resetScratch(path, base)) return;
    await rm(path, { recursive: true, force: true });
  }
  // Its folder is gone: its own stale entry would refuse the path. Only its own: `worktree prune`
  // would also drop the entries of others' worktrees whose folders are away (an unmounted disk).
  await runGit(repository, ['worktree', 'remove', '--force', path], quick);
  await gitOutput(repository, ['worktree', 'add', '--detach', '--end-of-options', path, base], heavy);
}

/** Resets the scratch worktree to `base`; false when git refuses a step. */
async function resetScratch(path: string, base: string): Promise<boolean> {
  // A merge the plane died in the middle of is abandoned (it was never recorded as built).
  await runGit(path, ['merge', '--abort'], quick);
  for (const step of [['checkout', '--detach', '--force', base, '--'], ['reset', '--hard', base], ['clean', '-fdq']]) {
    if ((await runGit(path, step, heavy)).code !== 0) return false;
  }
  return true;
}

/** `already`: the merge left HEAD where it was (the commit is already in it): nothing of its own to land. */
export type MergeResult = { merged: true; commit: string } | { merged: false; conflicts: string[] } | { merged: false; already: true };

/** Merges `commit` into the scratch worktree's HEAD as a merge commit of its own (`--no-ff`): one revert undoes it. */
export async function mergeInto(scratch: string, commit: string, message: string): Promise<MergeResult> {
  const before = await headOf(scratch);
  const run = await runGit(scratch, [...TRAIN_GIT, 'merge', '--no-ff', '--no-edit', '-m', message, '--end-of-options', commit], heavy);
  if (run.code === 0) {
    const after = await headOf(scratch);
    return after === before ? { merged: false, already: true } : { merged: true, commit: after };
  }
  const conflicted = await runGit(scratch, ['diff', '--name-only', '-z', '--diff-filter=U'], heavy);
  await runGit(scratch, ['merge', '--abort'], quick);
  const conflicts = nulFields(conflicted.stdout);
  if (conflicts.length === 0) throw new Error(`git merge failed without conflicts: ${describe(run)}`);
  return { merged: false, conflicts };
}

/**
 * What a revert undoes: the commit `landed` (a merge commit: against its first parent, the mainline),
 * or with `from`, all of `from..landed` (an item's own commits, landed by fast-forward or rebase).
 */
export interface Landing {
  landed: string;
  from?: string | undefined;
}

/**
 * Reverts a landing as a commit of its own. A range is reverted through one commit that squashes it
 * (the tree of `landed` on top of `from`, reachable from no ref): its inverse is the whole range's,
 * even when the range holds merges of the target into the branch, which `git revert A..B` refuses.
 */
export async function revertInto(scratch: string, landing: Landing, message: string): Promise<MergeResult> {
  const undone = landing.from === undefined ? landing.landed : (await gitOutput(scratch, [...TRAIN_GIT, 'commit-tree', '-p', landing.from, '-m', message, `${landing.landed}^{tree}`], quick)).stdout.toString().trim();
  const parents = (await gitOutput(scratch, ['rev-list', '--parents', '-n1', '--end-of-options', undone], quick)).stdout.toString().trim().split(' ').length - 1;
  const run = await runGit(scratch, [...TRAIN_GIT, 'revert', '--no-edit', ...(parents > 1 ? ['-m', '1'] : []), '--end-of-options', undone], heavy);
  if (run.code === 0) {
    await gitOutput(scratch, [...TRAIN_GIT, 'commit', '--amend', '-q', '-m', message], heavy);
    return { merged: true, commit: await headOf(scratch) };
  }
  const conflicted = await runGit(scratch, ['diff', '--name-only', '-z', '--diff-filter=U'], heavy);
  await runGit(scratch, ['revert', '--abort'], quick);
  const conflicts = nulFields(conflicted.stdout);
  if (conflicts.length === 0) throw new Error(`git revert failed without conflicts: ${describe(run)}`);
  return { merged: false, conflicts };
}

export async function headOf(worktree: string): Promise<string> {
  return (await gitOutput(worktree, ['rev-parse', '--verify', 'HEAD'], quick)).stdout.toString().trim();
}

/** Moves `ref` from `old` to `next` only if it still points at `old` (git's own compare-and-swap). */
export async function compareAndSwap(repository: string, ref: string, next: string, old: string, reason: string): Promise<boolean> {
  const run = await runGit(repository, ['update-ref', '-m', reason, ref, next, old], quick);
  return run.code === 0;
}

/** Whether `ancestor` is reachable from `descendant`. */
export async function isAncestor(cwd: string, ancestor: string, descendant: string): Promise<boolean> {
  const run = await runGit(cwd, ['merge-base', '--is-ancestor', '--end-of-options', ancestor, descendant], quick);
  return run.code === 0;
}

/** The worktrees that have `ref` checked out: moving it under them would leave them an inverted diff. */
export async function worktreesOn(repository: string, ref: string): Promise<string[]> {
  const run = await gitOutput(repository, ['worktree', 'list', '--porcelain', '-z'], quick);
  const found: string[] = [];
  let current: string | undefined;
  for (const field of nulFields(run.stdout)) {
    if (field.startsWith('worktree ')) current = field.slice('worktree '.length);
    else if (field === `branch ${ref}` && current !== undefined) found.push(current);
  }
  return found;
}

/** Whether `remote` is a remote configured in the repository (a mistyped one would stop every landing). */
export async function hasRemote(repository: string, remote: string): Promise<boolean> {
  return (await runGit(repository, ['remote', 'get-url', '--', remote], quick)).code === 0;
}

/**
 * The URL of a configured remote. Fetch and push go to the URL, not the remote's name: by name git
 * also updates the user's refs/remotes/* on the side, and those are not the train's to move.
 */
async function remoteUrl(repository: string, remote: string, push: boolean): Promise<string> {
  const url = (await gitOutput(repository, ['remote', 'get-url', ...(push ? ['--push'] : []), '--', remote], quick)).stdout.toString().trim();
  if (url === '') throw new Error(`the remote ${remote} has no URL`);
  return url;
}

/** Fetches `branch` of `remote` into the train's own ref `refs/fleet/<remote>/<branch>` (never refs/remotes/*). */
export async function fetchInto(repository: string, remote: string, branch: string): Promise<string> {
  const ref = `refs/fleet/${remote}/${branch}`;
  await gitOutput(repository, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--end-of-options', await remoteUrl(repository, remote, false), `+refs/heads/${branch}:${ref}`], heavy);
  return ref;
}

/** Pushes `commit` to the remote's `branch` without force: a remote that moved refuses it. */
export async function pushTo(repository: string, remote: string, commit: string, branch: string): Promise<{ ok: boolean; message: string }> {
  const run = await runGit(repository, ['push', '--quiet', '--porcelain', '--end-of-options', await remoteUrl(repository, remote, true), `${commit}:refs/heads/${branch}`], heavy);
  return { ok: run.code === 0, message: describe(run) };
}

function describe(run: GitRun): string {
  return `${run.stderr || run.stdout.toString()}`.trim().slice(0, 2000);
}
