import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The nearest directory at or above `start` that holds a `.git`: its worktree's (or submodule's) root. */
export function repositoryDirectory(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
