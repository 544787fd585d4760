import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { FleetError } from '../../contracts/index.js';
import { existingAncestor } from './existing-ancestor.js';

/** A repository as the plane sees it: territory is per scope, paths are relative to the worktree root. */
export interface Scope {
  /** The git common dir: every worktree of one repository shares it, and so shares territory. */
  id: string;
  /** The worktree root that stored paths are relative to. */
  worktree: string;
  /**
   * Where a submodule sits in its parent's worktree (`libs/core`): a submodule's files are its
   * parent's files for territory, so its paths are stored under this prefix in the parent's scope.
   */
  base?: string;
}

const GLOB_MAGIC = /[*?[\]{}]/;

/**
 * Finds the repository of a root path by reading `.git` directly (no git subprocess on the hot
 * path), following a worktree's `gitdir:` file to its `commondir`. Results are cached per root.
 */
export class ScopeResolver {
  private readonly cache = new Map<string, Scope>();
  /** Roots are client-supplied strings: the cache is bounded so no client can grow it forever. */
  private static readonly MAX_CACHED_ROOTS = 1024;

  resolve(root: string | undefined): Scope {
    if (root === undefined) throw new FleetError('INVALID_PARAMS', 'root is required: pass the absolute path of the repository the paths belong to');
    if (!isAbsolute(root)) throw new FleetError('INVALID_PARAMS', `root "${root}" must be an absolute path`);
    let scope = this.cache.get(root);
    if (!scope) {
      scope = findScope(root);
      if (this.cache.size >= ScopeResolver.MAX_CACHED_ROOTS) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(root, scope);
    }
    return scope;
  }

  /** A path or pattern as stored: relative to the worktree root; absolute ones must lie inside it. */
  toRelative(scope: Scope, input: string): string {
    if (!isAbsolute(input)) return scope.base === undefined ? input : `${scope.base}/${input}`;
    const rel = this.relativePath(scope, input);
    if (rel === '') throw new FleetError('INVALID_PARAMS', `"${input}" is the repository root itself: name files inside it, or claim everything with **`, { path: input });
    if (rel.startsWith('..') || isAbsolute(rel)) {
      throw new FleetError('INVALID_PARAMS', `"${input}" is outside the repository at ${scope.worktree}: give a path inside it`, { path: input });
    }
    return rel;
  }

  /** An absolute path inside the scope's worktree as stored (`''` for the root itself); outside it starts with `..`. */
  relativePath(scope: Scope, absolute: string): string {
    return relative(scope.worktree, resolve(absolute)).split(sep).join('/');
  }

  /** A literal pattern naming an existing directory claims its whole subtree (`dir` → `dir/`). */
  markDirectory(scope: Scope, pattern: string): string {
    if (GLOB_MAGIC.test(pattern) || pattern.endsWith('/')) return pattern;
    try {
      // Claims often name files not written yet: no exception for those, it would cost more than the stat.
      return statSync(join(scope.worktree, pattern), { throwIfNoEntry: false })?.isDirectory() ? `${pattern}/` : pattern;
    } catch {
      return pattern; // e.g. ENOTDIR: some parent is a file, so this is no directory either
    }
  }
}

function findScope(root: string): Scope {
  // Missing directories hold no .git: start at the deepest one that exists.
  const dir = repositoryDirectory(existingAncestor(resolve(root)).existing);
  if (dir === undefined) throw new FleetError('OUTSIDE_REPOSITORY', `${root} is not inside a git repository: territory is per repository, so run inside one (or git init it)`, { root });
  const parent = dirname(dir) === dir ? undefined : repositoryDirectory(dirname(dir));
  if (parent !== undefined && isSubmoduleOf(dir, parent)) {
    // A submodule's files are its parent's files: one scope, one fence counter, one check.
    const outer = findScope(parent);
    const inner = relative(outer.worktree, dir).split(sep).join('/');
    return { ...outer, base: inner };
  }
  return { id: commonDirOf(join(dir, '.git')), worktree: dir };
}

/** The nearest directory at or above `start` that holds a `.git`. */
function repositoryDirectory(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Registered in the parent's .gitmodules, or its git dir lives in the parent's `modules/`. */
function isSubmoduleOf(dir: string, parent: string): boolean {
  const path = relative(parent, dir).split(sep).join('/');
  try {
    const modules = readFileSync(join(parent, '.gitmodules'), 'utf8');
    if (modules.split('\n').some((line) => /^\s*path\s*=\s*(.+?)\s*$/.exec(line)?.[1] === path)) return true;
  } catch {
    // no .gitmodules: look at where its git dir lives
  }
  const dotGit = join(dir, '.git');
  if (statSync(dotGit).isDirectory()) return false;
  const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
  if (!pointer) return false;
  const gitDir = resolve(dir, pointer[1]!.trim());
  try {
    return realpathSync(gitDir).startsWith(join(commonDirOf(join(parent, '.git')), 'modules') + sep);
  } catch {
    return false;
  }
}

function commonDirOf(dotGit: string): string {
  if (statSync(dotGit).isDirectory()) return realpathSync(dotGit);
  // A linked worktree (or submodule): `.git` is a file pointing at its private git dir.
  const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
  if (!pointer) throw new FleetError('OUTSIDE_REPOSITORY', `${dotGit} is neither a git directory nor a "gitdir:" file`);
  const gitDir = resolve(dirname(dotGit), pointer[1]!.trim());
  const commonFile = join(gitDir, 'commondir');
  const common = existsSync(commonFile) ? resolve(gitDir, readFileSync(commonFile, 'utf8').trim()) : gitDir;
  if (!existsSync(common)) throw new FleetError('OUTSIDE_REPOSITORY', `${dotGit} points at ${common}, which does not exist: a removed worktree? Run \`git worktree prune\` or use another root`);
  return realpathSync(common);
}
