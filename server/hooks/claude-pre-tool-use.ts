import { z } from 'zod';
import { deny, shellCall, writtenPaths, type ClaudeHookAnswer } from './claude-write-check.js';
import { payloadSessionId } from './hook-check-request.js';
import { gateToolCall } from './tool-call-gate.js';

export { CLAUDE_MCP_TOOLS, CLAUDE_SHELL_TOOL, CLAUDE_WRITE_TOOLS, claudeHookOutput, type ClaudeHookAnswer } from './claude-write-check.js';

const preToolUseSchema = z.looseObject({
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
  cwd: z.string().optional(),
  session_id: z.unknown().optional(),
});

/**
 * `fleet hook claude-pre-tool-use`: reads the PreToolUse event, and denies a write outside the
 * writing agent's territory with a reason the model reads. Allowing prints nothing, so Claude
 * Code's own permission rules still apply (an explicit "allow" would skip them). The installed
 * hook is the lean runner (lean/fleet-hook.ts): it decides the same way, through
 * claude-write-check.ts, and hands what it cannot (unreadable input, no plane answering) to this verb.
 */
export async function claudePreToolUse(stdin: string, home: string, env: NodeJS.ProcessEnv): Promise<ClaudeHookAnswer> {
  let event: z.infer<typeof preToolUseSchema>;
  try {
    event = preToolUseSchema.parse(JSON.parse(stdin));
  } catch (error) {
    return deny(`The fleet hook could not read the PreToolUse input (${(error as Error).message.split('\n')[0]}), so it cannot tell whether this write is inside your territory.`);
  }
  const session = { cwd: event.cwd ?? process.cwd(), sessionId: payloadSessionId(event) };
  const input = event.tool_input ?? {};
  const shell = shellCall(event.tool_name, input, session.cwd);
  if (shell) return gateToolCall('claude-pre-tool-use', home, env, { ...session, cwd: shell.cwd }, { command: shell.command });
  return gateToolCall('claude-pre-tool-use', home, env, session, { paths: writtenPaths(event.tool_name, input, session.cwd) });
}
