import { z } from 'zod';
import { deny, gateToolCall } from './tool-call-gate.js';

/** The tools Claude Code writes files with; the settings `fleet install-hooks` writes match these. */
export const CLAUDE_WRITE_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'] as const;
/** Claude Code's shell tool: its command is parsed and judged by the plane. */
export const CLAUDE_SHELL_TOOL = 'Bash';
/** MCP tools are named mcp__<server>__<tool>: a write tool of any server whose input names a path is checked like Write. */
export const CLAUDE_MCP_TOOLS = 'mcp__.*';
const MCP_WRITE_VERB = /(write|edit|create|delete|remove|move|rename|update|patch|append|insert|replace|mkdir|save|put|upload|copy)/i;
const MCP_PATH_FIELDS = ['path', 'file_path', 'filePath', 'paths', 'file_paths', 'filePaths', 'source', 'destination'];

const preToolUseSchema = z.looseObject({
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
  cwd: z.string().optional(),
});

/** What the hook prints on stdout; it always exits 0 (Claude Code's protocol for a decision). */
export type ClaudeHookAnswer = { decision: 'allow' } | { decision: 'deny'; reason: string };

/**
 * `fleet hook claude-pre-tool-use`: reads the PreToolUse event, and denies a write outside the
 * writing agent's territory with a reason the model reads. Allowing prints nothing, so Claude
 * Code's own permission rules still apply (an explicit "allow" would skip them).
 */
export async function claudePreToolUse(stdin: string, home: string, env: NodeJS.ProcessEnv): Promise<ClaudeHookAnswer> {
  let event: z.infer<typeof preToolUseSchema>;
  try {
    event = preToolUseSchema.parse(JSON.parse(stdin));
  } catch (error) {
    return deny(`The fleet hook could not read the PreToolUse input (${(error as Error).message.split('\n')[0]}), so it cannot tell whether this write is inside your territory.`);
  }
  const cwd = event.cwd ?? process.cwd();
  if (event.tool_name === CLAUDE_SHELL_TOOL) {
    const command = event.tool_input?.command;
    return gateToolCall('claude-pre-tool-use', home, env, cwd, { command: typeof command === 'string' ? command : '' });
  }
  return gateToolCall('claude-pre-tool-use', home, env, cwd, { paths: writtenPaths(event.tool_name, event.tool_input ?? {}) });
}

/** The answer as Claude Code reads it from stdout. */
export function claudeHookOutput(answer: ClaudeHookAnswer): string {
  if (answer.decision === 'allow') return '';
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: answer.reason } })}\n`;
}

/** The files a tool call writes: a file tool's file_path, or the path fields of an MCP write tool (best effort). Codex's hook reads MCP tools through it too. */
export function writtenPaths(tool: string, input: Record<string, unknown>): string[] {
  if ((CLAUDE_WRITE_TOOLS as readonly string[]).includes(tool)) {
    const target = input.file_path ?? input.notebook_path;
    return typeof target === 'string' && target !== '' ? [target] : [];
  }
  const mcp = /^mcp__.+?__(.+)$/.exec(tool);
  // The fleet's own tools name paths to check or claim, not to write.
  if (!mcp || mcp[1]!.startsWith('fleet_') || !MCP_WRITE_VERB.test(mcp[1]!)) return [];
  return MCP_PATH_FIELDS.flatMap((field) => [input[field]].flat()).filter((value): value is string => typeof value === 'string' && value !== '');
}
