import { GIT_LIMITS } from './limits.js';
import { runGit } from './run-git.js';

const quick = { timeoutMs: GIT_LIMITS.quickMs, maxOutputBytes: GIT_LIMITS.quickBytes };

/**
 * The commit a ref or revision names, or undefined when it names none (a deleted branch, an
 * unborn HEAD). The name goes after --end-of-options so a branch called `--output=x` stays a name.
 */
export function resolveCommit(cwd: string, ref: string): Promise<string | undefined> {
  return resolveObject(cwd, `${ref}^{commit}`);
}

/** The tree of a commit (or undefined when `commit` names none). */
export function resolveTree(cwd: string, commit: string): Promise<string | undefined> {
  return resolveObject(cwd, `${commit}^{tree}`);
}

async function resolveObject(cwd: string, revision: string): Promise<string | undefined> {
  // --verify: rev-parse alone would echo back anything it does not parse (even --end-of-options).
  const run = await runGit(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', revision], quick);
  const id = run.stdout.toString().trim();
  return run.code === 0 && /^[0-9a-f]{40,64}$/.test(id) ? id : undefined;
}

/** The branch checked out in the worktree at `cwd` (`refs/heads/…`), or undefined on a detached HEAD. */
export async function currentBranch(cwd: string): Promise<string | undefined> {
  const run = await runGit(cwd, ['symbolic-ref', '--quiet', 'HEAD'], quick);
  const ref = run.stdout.toString().trim();
  return run.code === 0 && ref.startsWith('refs/heads/') ? ref : undefined;
}

/**
 * The repository's default branch as a full ref: what origin/HEAD points at when it is set, else
 * the local `main`, else `master`; undefined when none of them exists.
 */
export async function defaultBranchRef(cwd: string): Promise<string | undefined> {
  const originHead = await runGit(cwd, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], quick);
  const candidates = [originHead.code === 0 ? originHead.stdout.toString().trim() : '', 'refs/heads/main', 'refs/heads/master'];
  for (const ref of candidates) {
    if (ref !== '' && (await resolveCommit(cwd, ref)) !== undefined) return ref;
  }
  return undefined;
}

/** The best common ancestor of two commits, or undefined when their histories are unrelated. */
export async function mergeBase(cwd: string, a: string, b: string): Promise<string | undefined> {
  const run = await runGit(cwd, ['merge-base', '--end-of-options', a, b], quick);
  const id = run.stdout.toString().trim();
  return run.code === 0 && id !== '' ? id : undefined;
}
