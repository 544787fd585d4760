import { deny, shellCall, writtenPaths, type ClaudeHookAnswer } from './claude-write-check.js';
import { markRequest } from './claude-tool-marks.js';
import { CODEX_PATCH_TOOL, patchedPaths } from './codex-patch-paths.js';
import { inRepository } from '../gate/repository-directory.js';
import { reachesInto } from './reaches-into.js';
import type { OpenHookPlane } from './hook-plane.js';
import { payloadSessionId } from './hook-check-request.js';
import { gateToolCall, type HookProcess } from './tool-call-gate.js';
import { exactly, NON_EMPTY_STRING, readEvent, STRING } from './tool-event.js';

/** Codex names its shell tools (shell, exec_command) `Bash` in hook payloads. */
export const CODEX_SHELL_TOOL = 'Bash';
/** What the installed hook matches (a regex in Codex): the shell, apply_patch, and every MCP tool. */
export const CODEX_MATCHER = `${CODEX_SHELL_TOOL}|${CODEX_PATCH_TOOL}|mcp__.*`;
/** PostToolUse on the tools PreToolUse marks the worktree for: apply_patch is checked exactly before it writes, as Claude Code's file tools are. */
export const CODEX_POST_MATCHER = `${CODEX_SHELL_TOOL}|mcp__.*`;

// Codex's PreToolUse input (codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json): only the fields read here.
interface CodexToolEvent {
  hook_event_name: 'PreToolUse';
  tool_name: string;
  tool_input?: unknown;
  cwd: string;
  session_id?: unknown;
  tool_use_id?: unknown;
}

/**
 * `fleet hook codex-pre-tool-use --root REPO`: denies a Codex tool call that writes outside the
 * writing agent's territory. Codex reads user-level hooks in every project, so the hook answers only
 * for sessions in REPO's repository (any of its worktrees), or sessions elsewhere whose call reaches
 * into it, and stays silent for the rest. Allowing prints nothing, so Codex's own approval rules
 * still apply.
 */
export async function codexPreToolUse(stdin: string, home: string, root: string, env: NodeJS.ProcessEnv, open: OpenHookPlane, { runtimePids }: HookProcess): Promise<ClaudeHookAnswer> {
  const read = readEvent<CodexToolEvent>(stdin, { hook_event_name: exactly('PreToolUse'), tool_name: STRING, cwd: NON_EMPTY_STRING });
  if ('problem' in read) return deny(`The fleet hook could not read Codex's PreToolUse input (${read.problem}), so it cannot tell whether this write is inside your territory.`);
  const { event } = read;
  const { cwd } = event;
  if (!inRepository(cwd, root) && !reachesInto(cwd, root, JSON.stringify(event.tool_input ?? null))) return { decision: 'allow' };
  const session = { cwd, sessionId: payloadSessionId(event), runtimePids };
  const input = typeof event.tool_input === 'object' && event.tool_input !== null ? (event.tool_input as Record<string, unknown>) : {};
  const text = typeof input.command === 'string' ? input.command : '';
  // Codex's shell is named as Claude Code's (CODEX_SHELL_TOOL); MCP shell tools run their command in the project.
  const shell = shellCall(event.tool_name, input, cwd);
  // Allowed, a shell or MCP call leaves the watcher's mark, so codex-post-tool-use can tell what it changed.
  const mark = markRequest(event);
  return shell
    ? gateToolCall('codex-pre-tool-use', home, env, { ...session, cwd: shell.cwd }, { command: shell.command }, open, mark)
    : gateToolCall('codex-pre-tool-use', home, env, session, { paths: event.tool_name === CODEX_PATCH_TOOL ? patchedPaths(text) : writtenPaths(event.tool_name, input, cwd) }, open, mark);
}
