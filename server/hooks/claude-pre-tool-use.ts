import { deny, shellCall, writtenPaths, type ClaudeHookAnswer, type ToolEvent } from './claude-write-check.js';
import { markRequest } from './claude-tool-marks.js';
import { payloadSessionId } from './hook-check-request.js';
import type { OpenHookPlane } from './hook-plane.js';
import { gateToolCall, type HookProcess } from './tool-call-gate.js';
import { OPTIONAL_OBJECT, OPTIONAL_STRING, readEvent, STRING } from './tool-event.js';

export { CLAUDE_MCP_TOOLS, CLAUDE_SHELL_TOOL, CLAUDE_WRITE_TOOLS, claudeHookOutput, type ClaudeHookAnswer } from './claude-write-check.js';

/**
 * `fleet hook claude-pre-tool-use`: reads the PreToolUse event, and denies a write outside the
 * writing agent's territory with a reason the model reads. Allowing prints nothing, so Claude
 * Code's own permission rules still apply (an explicit "allow" would skip them); an allowed shell or
 * MCP call leaves the watcher's mark for its PostToolUse.
 */
export async function claudePreToolUse(stdin: string, home: string, env: NodeJS.ProcessEnv, open: OpenHookPlane, hook: HookProcess): Promise<ClaudeHookAnswer> {
  const read = readEvent<ToolEvent & { tool_use_id?: unknown }>(stdin, { tool_name: STRING, tool_input: OPTIONAL_OBJECT, cwd: OPTIONAL_STRING });
  if ('problem' in read) return deny(`The fleet hook could not read the PreToolUse input (${read.problem}), so it cannot tell whether this write is inside your territory.`);
  const { event } = read;
  const session = { cwd: event.cwd ?? hook.cwd, sessionId: payloadSessionId(event), runtimePids: hook.runtimePids };
  const input = event.tool_input ?? {};
  const mark = markRequest(event);
  const shell = shellCall(event.tool_name, input, session.cwd);
  if (shell) return gateToolCall('claude-pre-tool-use', home, env, { ...session, cwd: shell.cwd }, { command: shell.command }, open, mark);
  return gateToolCall('claude-pre-tool-use', home, env, session, { paths: writtenPaths(event.tool_name, input, session.cwd) }, open, mark);
}
