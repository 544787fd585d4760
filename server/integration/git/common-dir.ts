import { isAbsolute, resolve } from 'node:path';
import { GIT_LIMITS } from './limits.js';
import { runGit } from './run-git.js';

/** The git common directory of the worktree at `cwd` (shared by all of a repository's worktrees: same objects), or undefined outside a repository. */
export async function commonDirOf(cwd: string): Promise<string | undefined> {
  const run = await runGit(cwd, ['rev-parse', '--git-common-dir'], { timeoutMs: GIT_LIMITS.quickMs, maxOutputBytes: GIT_LIMITS.quickBytes });
  const dir = run.stdout.toString().trim();
  if (run.code !== 0 || dir === '') return undefined;
  return isAbsolute(dir) ? dir : resolve(cwd, dir);
}

/** The root of the worktree containing `cwd` (an agent may register a folder inside it), or undefined outside one. */
export async function worktreeTopOf(cwd: string): Promise<string | undefined> {
  const run = await runGit(cwd, ['rev-parse', '--show-toplevel'], { timeoutMs: GIT_LIMITS.quickMs, maxOutputBytes: GIT_LIMITS.quickBytes });
  const top = run.stdout.toString().trim();
  return run.code === 0 && top !== '' ? top : undefined;
}
