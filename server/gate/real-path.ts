import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * The path a write really lands on: symlinks resolved (a link in my territory pointing into
 * yours is your file), and for a file not written yet, its nearest existing parent's real path.
 */
export function realPath(path: string): string {
  const absolute = resolve(path);
  const missing: string[] = [];
  for (let at = absolute; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), ...missing.reverse());
    } catch {
      // Not there yet (or a dangling link): climb, and keep the name to put back.
      if (dirname(at) === at) return absolute;
      missing.push(basename(at));
    }
  }
}

/** The nearest directory that exists at or above `path`: where a repository is looked for. */
export function existingDirectory(path: string): string {
  for (let at = path; ; at = dirname(at)) {
    if (statSync(at, { throwIfNoEntry: false })?.isDirectory()) return at;
    if (dirname(at) === at) return at;
  }
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}
