import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';

/**
 * Whether a tool call made outside the repository at `root` may still write in it: its input names
 * the repository's folder (an absolute path), or it runs in a folder above it (`cd repo && …`).
 * A session in an unrelated project passes neither and is left alone.
 */
export function reachesInto(cwd: string, root: string, input: string): boolean {
  const roots = [...new Set([root, real(root)])];
  if (roots.some((folder) => input.includes(folder))) return true;
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
