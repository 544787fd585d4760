import { FleetError } from '../../../contracts/index.js';
import type { Ctx } from '../../core/context.js';
import type { WorktreeWatchers } from '../worktree-watcher/worktree-watchers.js';
import { findWriterBy, type WriterHints } from './hook-writer.js';

/** The worktree a PreToolUse hook asks its mark of, with the tool about to write there. */
export interface MarkAsked {
  worktree: string;
  source?: string | undefined;
}

/**
 * Whom a hook's mark attributes the worktree's changes to: the agent FLEET_AS names, else the one its
 * session is bound to, else the one whose runtime process runs the hook — never the worktree's agent
 * guessed from where it writes (a write seen elsewhere during the call is then told to that agent).
 */
export function markWriter(ctx: Ctx, hints: WriterHints): string | undefined {
  if (hints.callsign !== undefined) return hints.callsign; // not live: the mark says so (NOT_FOUND)
  return findWriterBy(ctx, { ...hints, where: undefined })?.agent.callsign;
}

/**
 * The mark a hook check takes for the tool call it let through (its `mark` param): what
 * fleet_worktree_changes without `since` gives, or null where that call would fail (no live agent
 * registered the worktree, the writer is not live). The check's verdict never depends on it.
 */
export async function markForAllowedCall(worktrees: WorktreeWatchers, asked: MarkAsked, writer: string | undefined): Promise<number | null> {
  try {
    return (await worktrees.changes(asked.worktree, undefined, writer, asked.source)).mark;
  } catch (error) {
    if (error instanceof FleetError) return null;
    throw error;
  }
}
