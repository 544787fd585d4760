import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { homePaths } from '../home/paths.js';
import { writesUnseen } from './claude-write-check.js';
import { hookEnvironment } from './hook-check-request.js';
import type { OpenHookPlane } from './hook-plane.js';
import { answerWithin } from './plane-deadline.js';

/** A tool call whose PostToolUse never comes (interrupted) leaves its mark behind: past this many, the oldest go. */
const MAX_MARKS = 256;

// Builtin-only (no zod): the lean hook runner takes marks too.
export interface ToolMark {
  mark: number;
  worktree: string;
}

/** A tool call PreToolUse takes a mark for: its id, the worktree it runs in (the payload's cwd) and its tool. */
export interface MarkRequest {
  toolUseId: string;
  worktree: string;
  tool: string;
}

/**
 * The mark PreToolUse asks the watcher for once it allows a tool call, so PostToolUse can tell what
 * the call changed: only for the tools whose writes no check saw exactly (writesUnseen: the file
 * tools' allow path stays lean), and never for events without a tool_use_id or an absolute cwd.
 * The check asks for it (its `mark` param), so an allowed call costs one round trip.
 */
export function markRequest(event: { tool_name: string; tool_use_id?: unknown; cwd?: unknown }): MarkRequest | undefined {
  const { tool_name: tool, tool_use_id: toolUseId, cwd } = event;
  if (typeof toolUseId !== 'string' || typeof cwd !== 'string' || !isAbsolute(cwd) || !writesUnseen(tool)) return undefined;
  return { toolUseId, worktree: cwd, tool };
}

/**
 * Keeps the mark of an allowed call for its PostToolUse: the one its check took (`taken`; null when
 * the worktree is not watched), else — no check was made (nothing to check, or an allow without the
 * plane's verdict) — one asked for now. Never refuses: a worktree no live agent registered is simply
 * not watched.
 */
export async function keepToolMark(request: MarkRequest, taken: number | null | undefined, home: string, env: NodeJS.ProcessEnv, sessionId: string | undefined, open: OpenHookPlane, hook: 'claude-pre-tool-use' | 'codex-pre-tool-use'): Promise<void> {
  if (taken === null) return;
  if (taken !== undefined) return saveToolMark(home, request.toolUseId, { mark: taken, worktree: request.worktree });
  const { callsign } = hookEnvironment(env);
  // The writer as every hook decides it: FLEET_AS, else the agent the plane has bound to the session.
  const writer = callsign !== undefined ? { writer: callsign, source: request.tool } : sessionId !== undefined ? { sessionId, source: request.tool } : {};
  // Bounded as the decision is: a plane that stalls just after allowing must not hold the tool call.
  await answerWithin(
    home,
    (async () => {
      const plane = await open(`fleet-hook-${hook}`);
      try {
        const { mark } = await plane.call('fleet_worktree_changes', { worktree: request.worktree, ...writer });
        saveToolMark(home, request.toolUseId, { mark, worktree: request.worktree });
      } finally {
        plane.close();
      }
    })().catch(() => undefined), // nothing to compare against later; the watcher still sees the writes
    () => undefined,
  );
}

/** One file per tool call (tool_use_id): Claude Code runs tool calls in parallel, so no two hooks share one. */
function markFile(home: string, toolUseId: string): string {
  return join(homePaths(home).toolMarks, `${toolUseId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
}

export function saveToolMark(home: string, toolUseId: string, mark: ToolMark): void {
  const dir = homePaths(home).toolMarks;
  const file = markFile(home, toolUseId);
  try {
    writeFileSync(file, JSON.stringify(mark), { mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify(mark), { mode: 0o600 });
  }
  const names = readdirSync(dir);
  if (names.length <= MAX_MARKS) return;
  const byAge = names.map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs })).sort((a, b) => a.at - b.at);
  for (const { name } of byAge.slice(0, names.length - MAX_MARKS)) unlinkSync(join(dir, name));
}

/** The mark of this tool call, taken out (read once): undefined when PreToolUse took none. */
export function takeToolMark(home: string, toolUseId: string): ToolMark | undefined {
  const file = markFile(home, toolUseId);
  try {
    const mark = JSON.parse(readFileSync(file, 'utf8')) as Partial<ToolMark> | null;
    unlinkSync(file);
    return Number.isInteger(mark?.mark) && typeof mark?.worktree === 'string' ? { mark: mark.mark!, worktree: mark.worktree } : undefined;
  } catch {
    return undefined;
  }
}
