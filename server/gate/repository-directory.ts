import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The nearest directory at or above `start` that holds a `.git`: its worktree's (or submodule's) root. */
export function repositoryDirectory(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The git common directory of the repository `start` is in (shared by all its worktrees), read from
 * the files git keeps (a worktree's `.git` file names its gitdir, whose `commondir` names the shared
 * one) rather than by running git: a hook asks on every tool call. Undefined outside a repository.
 */
export function repositoryCommonDirectory(start: string): string | undefined {
  const top = repositoryDirectory(start);
  if (top === undefined) return undefined;
  try {
    const dotGit = join(top, '.git');
    const gitDir = statSync(dotGit).isDirectory() ? dotGit : resolve(top, /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))![1]!.trim());
    const common = join(gitDir, 'commondir');
    return realpathSync(existsSync(common) ? resolve(gitDir, readFileSync(common, 'utf8').trim()) : gitDir);
  } catch {
    return undefined;
  }
}

/** Whether `cwd` is in a worktree of the repository at `root` (they share git's common dir; read from git's files, not by running git). */
export function inRepository(cwd: string, root: string): boolean {
  const here = repositoryCommonDirectory(cwd);
  return here !== undefined && here === repositoryCommonDirectory(root);
}
