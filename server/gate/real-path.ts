import { realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { existingAncestor } from '../plane/repository/existing-ancestor.js';

/**
 * The path a write really lands on: symlinks resolved (a link in my territory pointing into
 * yours is your file), and for a file not written yet, its nearest existing parent's real path.
 */
export function realPath(path: string): string {
  const absolute = physicalPath(absolutePath(process.cwd(), path));
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

/**
 * `path` made absolute against `base` with `.` and repeated slashes dropped but every `..` kept:
 * after a symbolic link, `..` is the parent of where the link leads (the kernel's reading), which
 * only the file system can tell (physicalPath).
 */
export function absolutePath(base: string, path: string): string {
  const joined = isAbsolute(path) ? path : `${base}${sep}${path}`;
  const segments = joined.split(sep).filter((segment) => segment !== '' && segment !== '.');
  return sep + segments.join(sep);
}

/** An absolute path with each `..` taken as the kernel takes it: the parent of the real folder before it (`mine/link/../x` is beside the link's target). */
function physicalPath(absolute: string): string {
  if (!absolute.split(sep).includes('..')) return resolve(absolute);
  let at: string = sep;
  for (const segment of absolute.split(sep)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') at = dirname(realOrAsIs(at));
    else at = join(at, segment);
  }
  return at;
}

function realOrAsIs(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path; // not there: the write fails there anyway, read lexically
  }
}
