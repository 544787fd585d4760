/** A write into another agent's exclusive territory that the watcher could not attribute (recorded as by `unknown`). */
export interface UnattributedWrite {
  /** The watcher's mark when the write was first seen. */
  mark: number;
  root: string;
  scope: string;
  path: string;
  holder: string;
  /** The agents whose hooked calls in other worktrees were in flight then. */
  callsInFlight: readonly string[];
}

/**
 * The recent unattributed writes, so a PostToolUse hook can tell its agent "a write into X's worktree
 * happened during your call" (the write may be the agent's, from a form no check could read).
 * Bounded: the oldest go first.
 */
export class UnattributedWrites {
  private readonly writes: UnattributedWrite[] = [];

  constructor(private readonly capacity: number) {}

  add(write: UnattributedWrite): void {
    this.writes.push(write);
    if (this.writes.length > this.capacity) this.writes.shift();
  }

  /** Those seen after `since` in the repository `scope` but outside `root`, while `agentId`'s call was in flight; at most `limit`. */
  duringCallOf(agentId: string, since: number, scope: string, root: string, limit: number): UnattributedWrite[] {
    return this.writes.filter((w) => w.mark > since && w.scope === scope && w.root !== root && w.callsInFlight.includes(agentId)).slice(-limit);
  }
}
