import { dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScopeResolver, type Scope } from '../plane/repository/scope-resolver.js';

/** Where a file sits as territory sees it: its repository (scope) and its path inside it. */
export interface FileLocation {
  scope: string;
  worktree: string;
  /** Relative to the worktree root, with `/` separators. */
  path: string;
}

/**
 * The window's workspace folders and the repositories they belong to (multi-root: several), and
 * the mapping from a document URI to its repository-relative path, resolved the way the plane
 * resolves it (the same ScopeResolver), so the two sides always agree on what a pattern covers.
 */
export class WorkspaceScopes {
  private readonly resolver = new ScopeResolver();
  private folders: string[] = [];
  /**
   * Repositories inside a workspace folder that are not the folder's own (`fleet demo --here` puts
   * one in .fleet-demo): open here too, found as the editor asks about their files.
   */
  private readonly nested = new Map<string, string>();
  /** Every worktree of such repositories found so far (a builder's own worktree among them), with its scope. */
  private readonly nestedWorktrees = new Map<string, string>();

  /**
   * `nestedFound`: a worktree of a repository inside a folder was first seen; `newScope` when it is
   * the first of its repository (whose claims now have a root here).
   */
  constructor(private readonly nestedFound: (newScope: boolean) => void = () => undefined) {}

  setFolders(uris: readonly string[]): void {
    this.forgetNested();
    this.folders = uris.flatMap((uri) => {
      const path = filePath(uri);
      return path === undefined ? [] : [path];
    });
  }

  changeFolders(added: readonly string[], removed: readonly string[]): void {
    const gone = new Set(removed.map(filePath));
    this.forgetNested();
    this.folders = [...this.folders.filter((folder) => !gone.has(folder)), ...added.flatMap((uri) => filePath(uri) ?? [])];
  }

  /** The repositories of the workspace folders, one entry per folder inside a git repository. */
  folderScopes(): Scope[] {
    const scopes: Scope[] = [];
    for (const folder of this.folders) {
      const scope = this.tryResolve(folder);
      if (scope && !scopes.some((known) => known.worktree === scope.worktree)) scopes.push(scope);
    }
    return scopes;
  }

  /** The worktrees found inside a folder that are not a folder's own repository, each with its scope. */
  nestedCheckouts(): ReadonlyMap<string, string> {
    return this.nestedWorktrees;
  }

  /** A worktree of this workspace that belongs to `scope`, to turn its patterns into files. */
  rootFor(scope: string): string | undefined {
    return this.folderScopes().find((known) => known.id === scope)?.worktree ?? this.nested.get(scope);
  }

  locate(uri: string): FileLocation | undefined {
    const path = filePath(uri);
    if (path === undefined) return undefined;
    const scope = this.tryResolve(dirname(path));
    if (!scope) return undefined;
    this.noteNested(scope);
    try {
      return { scope: scope.id, worktree: scope.worktree, path: this.resolver.toRelative(scope, path) };
    } catch {
      return undefined; // the worktree root itself
    }
  }

  private noteNested(scope: Scope): void {
    if (this.nestedWorktrees.has(scope.worktree) || !this.folders.some((folder) => scope.worktree.startsWith(`${folder}${sep}`))) return;
    const folderScopes = this.folderScopes();
    if (folderScopes.some((known) => known.worktree === scope.worktree)) return;
    this.nestedWorktrees.set(scope.worktree, scope.id);
    const newScope = !this.nested.has(scope.id) && !folderScopes.some((known) => known.id === scope.id);
    if (newScope) this.nested.set(scope.id, scope.worktree);
    this.nestedFound(newScope);
  }

  private forgetNested(): void {
    this.nested.clear();
    this.nestedWorktrees.clear();
  }

  private tryResolve(root: string): Scope | undefined {
    try {
      return this.resolver.resolve(root);
    } catch {
      return undefined; // outside any git repository: no territory there
    }
  }
}

function filePath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
