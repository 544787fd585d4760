import { execFile } from 'node:child_process';
import type { WorktreeFacts } from '../../core/work-guidance.js';

/** The files whose committed text is the repository's covenant for agents. */
const COVENANT_FILES = ['AGENTS.md', 'CLAUDE.md'];

/** git's output in `worktree`, trimmed; undefined when git fails (not a repository, an unknown commit). */
export function gitIn(worktree: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => execFile('git', ['-C', worktree, ...args], { timeout: 10_000 }, (error, stdout) => resolve(error ? undefined : stdout.trim())));
}

export function gitHead(worktree: string): Promise<string | undefined> {
  return gitIn(worktree, ['rev-parse', 'HEAD']);
}

/**
 * A worktree's HEAD and the blob hashes of its covenant files as committed there (not as edited
 * on disk: the rules are what the repository agreed to). Not a repository, or no commit yet: none.
 */
export async function readWorktreeFacts(worktree: string | undefined): Promise<WorktreeFacts> {
  if (worktree === undefined) return { covenant: [] };
  const [head, tree] = await Promise.all([gitHead(worktree), gitIn(worktree, ['ls-tree', 'HEAD', '--', ...COVENANT_FILES])]);
  // ls-tree lines read "<mode> blob <hash>\t<path>".
  const covenant = (tree ?? '').split('\n').flatMap((line) => {
    const match = /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(line);
    return match ? [{ path: match[2]!, blob: match[1]! }] : [];
  });
  return { worktree, ...(head !== undefined && { head }), covenant };
}
