import { FleetError } from '../../../contracts/index.js';
import type { Ctx } from '../../core/context.js';
import { noteHookSeen } from '../../core/hooks-seen.js';
import { endWait } from '../../core/person-waits.js';
import type { AgentRecord } from '../../core/state.js';
import type { WorktreeWatchers } from '../worktree-watcher/worktree-watchers.js';
import { findWriter, findWriterBy, type WriterHints } from './hook-writer.js';

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
 * Whom a hook's check speaks for, as both checks (file tools, shell commands) find it: the writer by
 * its hints, now seen hooked and no longer waiting for a person (its runtime went on to this call),
 * and the name its mark attributes the worktree's changes to.
 */
export function hookCallWriter(ctx: Ctx, hints: WriterHints, hook: string): { agent: AgentRecord | undefined; marker: string | undefined } {
  const agent = findWriter(ctx, hints);
  if (agent) {
    noteHookSeen(agent, hook, ctx.now);
    endWait(ctx, agent);
  }
  return { agent, marker: markWriter(ctx, hints) };
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
