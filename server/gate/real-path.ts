import { realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { existingAncestor } from '../plane/repository/existing-ancestor.js';

/**
 * The path a write really lands on: symlinks resolved (a link in my territory pointing into
 * yours is your file), and for a file not written yet, its nearest existing parent's real path.
 */
export function realPath(path: string): string {
  const absolute = resolve(path);
  // Not there yet (or a dangling link): the missing names are put back under the real parent.
  const { existing, missing } = existingAncestor(absolute);
  try {
    return join(realpathSync(existing), ...missing);
  } catch {
    return absolute;
  }
}

/** The nearest directory that exists at or above `path`: where a repository is looked for. */
export function existingDirectory(path: string): string {
  const { existing } = existingAncestor(resolve(path));
  return isDirectory(existing) ? existing : dirname(existing);
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}
