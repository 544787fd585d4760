import type { WorkspaceScopes } from './workspace-scopes.js';

/**
 * Repositories inside a workspace folder that are not a folder's own (`fleet demo --here` puts one
 * in .fleet-demo/): VS Code's git extension does not open them (deeper than its scan), so the
 * folder's repository judges their files, and where it ignores them (the demo's folder is in its
 * info/exclude) git's grey wins over Fleet's badge colours. Each worktree of such a repository is
 * announced once it has fleet activity (live claims or write-sets in its repository), so the
 * extension asks git to open it; a nested repository nobody works in is never announced.
 */
export class NestedRepositories {
  private readonly announced = new Set<string>();

  constructor(
    private readonly scopes: WorkspaceScopes,
    /** The scopes with live claims or write-sets now. */
    private readonly activeScopes: () => ReadonlySet<string>,
    private readonly announce: (root: string) => void,
  ) {}

  /** After a nested worktree was found, claims changed, or the write-sets were read again. */
  check(): void {
    const waiting = [...this.scopes.nestedCheckouts()].filter(([worktree]) => !this.announced.has(worktree));
    if (waiting.length === 0) return;
    const active = this.activeScopes();
    for (const [worktree, scope] of waiting) {
      if (!active.has(scope)) continue;
      this.announced.add(worktree);
      this.announce(worktree);
    }
  }
}
