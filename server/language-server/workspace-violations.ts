import type { WorkspaceViolation } from '../../contracts/lsp.js';

/**
 * The unacknowledged violations in this workspace's repositories, by id: loaded from
 * fleet_violations on connect, then kept by the plane's events (territory.violated adds one,
 * territory.violations_acknowledged removes them). Each change reports whether the list moved.
 */
export class WorkspaceViolations {
  private readonly byId = new Map<string, WorkspaceViolation>();

  replace(entries: readonly WorkspaceViolation[]): void {
    this.byId.clear();
    for (const entry of entries) this.byId.set(entry.violation.id, entry);
  }

  add(entry: WorkspaceViolation): boolean {
    if (this.byId.has(entry.violation.id)) return false;
    this.byId.set(entry.violation.id, entry);
    return true;
  }

  acknowledge(ids: readonly string[]): boolean {
    let removed = false;
    for (const id of ids) removed = this.byId.delete(id) || removed;
    return removed;
  }

  list(): WorkspaceViolation[] {
    return [...this.byId.values()];
  }
}
