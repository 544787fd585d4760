import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { homePaths } from '../home/paths.js';
import { writesUnseen } from './claude-write-check.js';
import { hookEnvironment, payloadSessionId } from './hook-check-request.js';

/** A tool call whose PostToolUse never comes (interrupted) leaves its mark behind: past this many, the oldest go. */
const MAX_MARKS = 256;

// Builtin-only (no zod): the lean hook runner takes marks too.
export interface ToolMark {
  mark: number;
  worktree: string;
}

/**
 * What PreToolUse asks the watcher (fleet_worktree_changes) once it allows a tool call, so PostToolUse
 * can tell what the call changed: only for the tools whose writes no check saw exactly (writesUnseen:
 * the file tools' allow path stays lean), and never for events without a tool_use_id or an absolute cwd.
 */
export function markRequest(event: { tool_name: string; tool_use_id?: unknown; cwd?: unknown; session_id?: unknown }, env: NodeJS.ProcessEnv): { toolUseId: string; params: { worktree: string; writer?: string; sessionId?: string; source?: string } } | undefined {
  const { tool_name: tool, tool_use_id: toolUseId, cwd } = event;
  if (typeof toolUseId !== 'string' || typeof cwd !== 'string' || !isAbsolute(cwd) || !writesUnseen(tool)) return undefined;
  const { callsign } = hookEnvironment(env);
  const sessionId = payloadSessionId(event);
  // The writer as every hook decides it: FLEET_AS, else the agent the plane has bound to the session.
  const writer = callsign !== undefined ? { writer: callsign, source: tool } : sessionId !== undefined ? { sessionId, source: tool } : {};
  return { toolUseId, params: { worktree: cwd, ...writer } };
}

/** One file per tool call (tool_use_id): Claude Code runs tool calls in parallel, so no two hooks share one. */
function markFile(home: string, toolUseId: string): string {
  return join(homePaths(home).toolMarks, `${toolUseId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
}

export function saveToolMark(home: string, toolUseId: string, mark: ToolMark): void {
  const dir = homePaths(home).toolMarks;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(markFile(home, toolUseId), JSON.stringify(mark), { mode: 0o600 });
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
