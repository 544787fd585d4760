import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { FleetError } from '../../../contracts/index.js';
import { repositoryDirectory } from '../../gate/repository-directory.js';
import { existingAncestor } from './existing-ancestor.js';
import { canonicalScope } from './scope-identity.js';
import { scopeIdOf } from './scope-id-of.js';

/**
 * A repository as the plane sees it: territory is per scope, paths are relative to the worktree
 * root. The id is the same on every machine and in every clone (DESIGN §13); the rest is where
 * this machine keeps it.
 */
export interface Scope extends CallScope {
  /** The worktree root that stored paths are relative to. */
  worktree: string;
  /** The git common dir every worktree of this clone shares (`…/.git`, or a bare repository). */
  gitDir: string;
}

/** The scope of one call: named by `scope` alone (a remote agent without a checkout), or found from `root`. */
export interface CallScope {
  /** `fleet.scope`, else the normalized origin URL, else an id generated once into `fleet.scope`. */
  id: string;
  /** The worktree absolute paths are taken relative to: only when the call gave root. */
  worktree?: string;
  /** A checkout of the scope this plane has seen, for a call that named the scope alone: it only tells directories. */
  seenCheckout?: string;
  /**
   * Where a submodule sits in its parent's worktree (`libs/core`): a submodule's files are its
   * parent's files for territory, so its paths are stored under this prefix in the parent's scope.
   */
  base?: string;
}

const GLOB_MAGIC = /[*?[\]{}]/;

interface Cached {
  scope: Scope;
  /** The config file the id came from and its mtime: an edit (`git config fleet.scope …`) is seen at once. */
  config: string;
  mtimeMs: number;
}

/**
 * Finds the repository of a root path by reading `.git` and the git config directly (no git
 * subprocess on the hot path), following a worktree's `gitdir:` file to its `commondir`. Results
 * are cached per root and re-read when the repository's config file changes.
 */
export class ScopeResolver {
  private readonly cache = new Map<string, Cached>();
  /** Roots are client-supplied strings: the cache is bounded so no client can grow it forever. */
  private static readonly MAX_CACHED_ROOTS = 1024;

  resolve(root: string | undefined): Scope {
    if (root === undefined) throw new FleetError('INVALID_PARAMS', 'root is required: pass the absolute path of the repository the paths belong to (or scope, the repository\'s id, with repository-relative paths)');
    if (!isAbsolute(root)) throw new FleetError('INVALID_PARAMS', `root "${root}" must be an absolute path`);
    const cached = this.cache.get(root);
    if (cached && mtimeOf(cached.config) === cached.mtimeMs) return cached.scope;
    const found = findScope(root);
    this.cache.delete(root);
    if (this.cache.size >= ScopeResolver.MAX_CACHED_ROOTS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(root, found);
    return found.scope;
  }

  /**
   * The scope a call names: `root` (a local path), `scope` (an id, or an origin URL in any form),
   * or both, which must agree. With `scope` alone, paths must be repository-relative; a checkout
   * of it this plane has seen still tells which of them are directories.
   */
  forCall(params: { root?: string | undefined; scope?: string | undefined }): CallScope {
    if (params.scope === undefined) return this.resolve(params.root);
    const id = canonicalScope(params.scope);
    if (id === '') throw new FleetError('INVALID_PARAMS', 'scope is empty: pass the repository\'s id (its fleet.scope or origin URL) or a root');
    if (params.root !== undefined) {
      const local = this.resolve(params.root);
      if (local.id !== id) throw new FleetError('INVALID_PARAMS', `root ${params.root} belongs to scope "${local.id}", not to the scope "${id}" given: pass one of them, or both naming the same repository`, { root: params.root, scope: id });
      return local;
    }
    const local = [...this.cache.values()].find((entry) => entry.scope.id === id && entry.scope.base === undefined)?.scope;
    return local ? { id, seenCheckout: local.worktree } : { id };
  }

  /** A path or pattern as stored: relative to the worktree root; absolute ones must lie inside it. */
  toRelative(scope: CallScope, input: string): string {
    if (!isAbsolute(input)) return scope.base === undefined ? input : `${scope.base}/${input}`;
    if (scope.worktree === undefined) throw new FleetError('INVALID_PARAMS', `"${input}" is an absolute path, but the call names its repository by scope alone: give paths relative to the repository root, or pass root`, { path: input });
    const rel = this.relativePath({ worktree: scope.worktree }, input);
    if (rel === '') throw new FleetError('INVALID_PARAMS', `"${input}" is the repository root itself: name files inside it, or claim everything with **`, { path: input });
    if (rel.startsWith('..') || isAbsolute(rel)) {
      throw new FleetError('INVALID_PARAMS', `"${input}" is outside the repository at ${scope.worktree}: give a path inside it`, { path: input });
    }
    return rel;
  }

  /** An absolute path inside the scope's worktree as stored (`''` for the root itself); outside it starts with `..`. */
  relativePath(scope: Pick<Scope, 'worktree'>, absolute: string): string {
    return relative(scope.worktree, resolve(absolute)).split(sep).join('/');
  }

  /** A literal pattern naming an existing directory claims its whole subtree (`dir` → `dir/`). */
  markDirectory(scope: CallScope, pattern: string): string {
    const checkout = scope.worktree ?? scope.seenCheckout;
    if (GLOB_MAGIC.test(pattern) || pattern.endsWith('/') || checkout === undefined) return pattern;
    try {
      // Claims often name files not written yet: no exception for those, it would cost more than the stat.
      return statSync(join(checkout, pattern), { throwIfNoEntry: false })?.isDirectory() ? `${pattern}/` : pattern;
    } catch {
      return pattern; // e.g. ENOTDIR: some parent is a file, so this is no directory either
    }
  }
}

function findScope(root: string): Cached {
  // Missing directories hold no .git: start at the deepest one that exists.
  const dir = repositoryDirectory(existingAncestor(resolve(root)).existing);
  if (dir === undefined) throw new FleetError('OUTSIDE_REPOSITORY', `${root} is not inside a git repository: territory is per repository, so run inside one (or git init it)`, { root });
  const parent = dirname(dir) === dir ? undefined : repositoryDirectory(dirname(dir));
  if (parent !== undefined && isSubmoduleOf(dir, parent)) {
    // A submodule's files are its parent's files: one scope, one fence counter, one check.
    const outer = findScope(parent);
    const inner = relative(outer.scope.worktree, dir).split(sep).join('/');
    return { ...outer, scope: { ...outer.scope, base: inner } };
  }
  const gitDir = commonDirOf(join(dir, '.git'));
  const config = join(gitDir, 'config');
  const mtimeMs = mtimeOf(config); // before reading: a change made meanwhile is seen on the next call
  return { scope: { id: scopeIdOf(gitDir), worktree: dir, gitDir }, config, mtimeMs };
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

export function commonDirOf(dotGit: string): string {
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

/** The config file's mtime, or -1 when it is missing: a cache entry is good while this is unchanged. */
function mtimeOf(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? -1;
}
