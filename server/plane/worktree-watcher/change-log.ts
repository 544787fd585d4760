/** One change the watcher saw in a worktree. */
export interface Change {
  mark: number;
  path: string;
  /** Seen while git moved HEAD or the index (checkout, merge, pull): not an agent's write. */
  viaGit: boolean;
}

/**
 * The recent changes of one worktree, so a hook can ask "what changed since mark M" after a tool
 * call. Bounded: it keeps at least the last `capacity` (and at most a quarter more); older ones are
 * forgotten, and a question about them says so.
 */
export class ChangeLog {
  private readonly changes: Change[] = [];
  /** Marks up to this one may have been forgotten. */
  private forgottenUpTo: number;

  constructor(
    private readonly capacity: number,
    startMark: number,
  ) {
    this.forgottenUpTo = startMark;
  }

  add(change: Change): void {
    this.changes.push(change);
    // Trimmed a quarter at a time, so a burst of changes does not shift the array on every one.
    if (this.changes.length >= this.capacity + this.capacity / 4) this.forgottenUpTo = this.changes.splice(0, this.changes.length - this.capacity).at(-1)!.mark;
  }

  /** The latest change of each path after `since`, at most `limit` paths. */
  since(since: number, limit: number): { changes: Change[]; truncated: boolean } {
    const latest = new Map<string, Change>();
    for (let i = this.changes.length - 1; i >= 0 && this.changes[i]!.mark > since; i--) {
      const change = this.changes[i]!;
      if (!latest.has(change.path)) latest.set(change.path, change);
    }
    const changes = [...latest.values()].reverse();
    return { changes: changes.slice(0, limit), truncated: since < this.forgottenUpTo || changes.length > limit };
  }
}
