import { realpathSync } from 'node:fs';
import { basename, isAbsolute, relative } from 'node:path';

/**
 * Whether a tool call made outside the repository at `root` may still write in it: its input names
 * the repository's folder (by its name: `/abs/repo/…`, `../repo/…`, `~/repo/…`, `$HOME/repo/…`), or
 * it runs in a folder above it (`cd repo && …`). A session in an unrelated project passes neither and
 * is left alone; one that merely mentions the name is judged, which costs a check and refuses nothing
 * outside the repository.
 */
export function reachesInto(cwd: string, root: string, input: string): boolean {
  const names = [...new Set([basename(root), basename(real(root))])].filter((name) => name !== '');
  if (names.some((name) => input.includes(name))) return true;
  const up = relative(real(cwd), real(root));
  return up !== '' && !up.startsWith('..') && !isAbsolute(up);
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
