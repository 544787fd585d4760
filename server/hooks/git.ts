import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/** Runs git in `cwd` and returns its stdout; throws with git's own message when it fails. */
export function git(cwd: string, ...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`git ${args.join(' ')}: ${stderr || (error as Error).message}`);
  }
}

/** The root of the worktree containing `cwd`, or undefined outside any repository. */
export function worktreeRoot(cwd: string): string | undefined {
  try {
    return git(cwd, 'rev-parse', '--show-toplevel').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Where git looks for hooks: core.hooksPath when set (husky sets it), else the common dir's hooks/. */
export function hooksDirectory(root: string): string {
  return resolve(root, git(root, 'rev-parse', '--git-path', 'hooks').trim());
}

/** The git common dir (shared by every worktree of the repository). */
export function commonDirectory(root: string): string {
  return resolve(root, git(root, 'rev-parse', '--git-common-dir').trim());
}

/**
 * Every path the commit would write, relative to the worktree root: added, modified, deleted
 * (removing a file is a write too) and both sides of a rename.
 */
export function stagedPaths(root: string): string[] {
  return git(root, 'diff', '--cached', '--name-only', '--no-renames', '-z').split('\0').filter((p) => p.length > 0);
}
