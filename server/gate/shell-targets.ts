import { existsSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { minimatch } from 'minimatch';
import { existingDirectory, isDirectory, realPath } from './real-path.js';
import { absoluteTarget, type ShellWrite } from './shell-analysis.js';

/** A named write made concrete on this machine, ready for the territory check. */
export type WriteCheck =
  /** One file, as its real path. */
  | { kind: 'file'; path: string; via: string; shown: string }
  /** Many files: `pattern` (a glob) under the real directory `dir`; an existing directory is `dir` + `**`. */
  | { kind: 'pattern'; dir: string; pattern: string; via: string; shown: string }
  /** Every file of the worktree at `dir` (a branch switch, a hard reset). */
  | { kind: 'worktree'; dir: string; via: string; shown: string }
  /** Nothing says where it points ($VAR/…, stdin of xargs): allowed, with a note. */
  | { kind: 'unknown'; via: string; shown: string };

const GLOB_SEGMENT = /[*?[{]/;

/** Resolves each write against the file system: real paths, directories as subtrees. */
export function concreteWrites(writes: readonly ShellWrite[]): WriteCheck[] {
  const budget = { entries: MAX_SCANNED_ENTRIES };
  return writes.flatMap((write) => {
    const check = concreteWrite(write);
    // A glob that matches a symlink writes the link's target: each such link is checked as its real path.
    if (check.kind !== 'pattern' || check.pattern === '**') return [check];
    // A glob can match a folder (rm -r s*, chmod -R 0 src/th*): what is inside it is written too.
    const inside: WriteCheck = { ...check, pattern: `${check.pattern}/**` };
    return [check, inside, ...linksMatching(check.dir, check.pattern, budget).map((link): WriteCheck => ({ kind: 'file', path: realPath(link), via: check.via, shown: link }))];
  });
}

/** How many directory entries the symlink scans of one command read at most (they run on the plane's loop). */
const MAX_SCANNED_ENTRIES = 5000;

/** Symlinks under `dir` that `pattern` matches (a walk that never follows links, within the command's budget). */
function linksMatching(dir: string, pattern: string, budget: { entries: number }): string[] {
  const links: string[] = [];
  const queue = [dir];
  while (queue.length > 0 && budget.entries > 0) {
    const at = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (--budget.entries < 0 || entry.name === '.git') continue;
      const path = join(at, entry.name);
      if (entry.isSymbolicLink() && minimatch(relative(dir, path), pattern, { dot: true })) links.push(path);
      else if (entry.isDirectory()) queue.push(path);
    }
  }
  return links;
}

function concreteWrite(write: ShellWrite): WriteCheck {
  if (write.kind === 'worktree') return { kind: 'worktree', dir: realPath(existingDirectory(write.cwd)), via: write.via, shown: write.via };
  if (write.kind === 'link-target') {
    // A relative target is read from the link's folder: the folder named, else the one the link is made in.
    if (write.link.unanchored && !isAbsolute(write.word.text)) return { kind: 'unknown', via: write.via, shown: write.word.text };
    const at = absoluteTarget(write.link.text, write.cwd);
    const from = write.link.text.endsWith('/') || isDirectory(realPath(at)) ? at : dirname(at);
    return concreteWrite({ kind: 'path', word: write.word, via: write.via, cwd: from });
  }
  const { word, via, cwd } = write;
  const shown = word.text;
  if (word.unanchored) return { kind: 'unknown', via, shown };
  const absolute = absoluteTarget(word.text, cwd);
  if (write.kind === 'path-or-branch' && !existsSync(absolute)) return { kind: 'worktree', dir: realPath(existingDirectory(cwd)), via: `${via} ${shown}`, shown };
  if (!word.glob) {
    const real = realPath(absolute);
    return isDirectory(real) ? { kind: 'pattern', dir: real, pattern: '**', via, shown } : { kind: 'file', path: real, via, shown };
  }
  // The literal directories before the first glob segment are resolved; the rest stays a pattern.
  const segments = absolute.split('/');
  const first = segments.findIndex((s) => GLOB_SEGMENT.test(s));
  const dir = realPath(segments.slice(0, first).join('/') || '/');
  return { kind: 'pattern', dir, pattern: join(...segments.slice(first)), via, shown };
}
