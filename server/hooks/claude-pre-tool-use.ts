import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { PlaneCallError } from '../client/plane-client.js';
import { existingDirectory, realPath } from '../gate/real-path.js';
import { hookEnvironment, runCommandCheck, runHookCheck } from './hook-check.js';
import { explainCommandRefusal } from './command-refusal.js';
import { explainRefusal } from './refusal-message.js';

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
  const { callsign, override } = hookEnvironment(env);
  const writer = { home, hook: 'claude-pre-tool-use' as const, agentOnly: true, ...(callsign !== undefined && { callsign }), ...(override !== undefined && { override }) };
  try {
    if (event.tool_name === CLAUDE_SHELL_TOOL) {
      const command = event.tool_input?.command;
      if (typeof command !== 'string' || command.trim() === '') return { decision: 'allow' };
      const verdict = await runCommandCheck({ ...writer, command, cwd });
      return verdict.allowed ? { decision: 'allow' } : deny(explainCommandRefusal(verdict));
    }
    const targets = writtenPaths(event.tool_name, event.tool_input ?? {});
    if (targets.length === 0) return { decision: 'allow' };
    // Checked as real paths, in the repository they really are in (a link may lead out of one into another).
    const files = targets.map((target) => realPath(isAbsolute(target) ? target : resolve(cwd, target)));
    const verdict = await runHookCheck({ ...writer, root: existingDirectory(dirname(files[0]!)), paths: files, worktree: cwd });
    if (verdict.allowed || verdict.overridden) return { decision: 'allow' };
    return deny(explainRefusal(verdict, { hook: 'claude-pre-tool-use' }));
  } catch (error) {
    // Territory is per repository: a file outside every repository is nobody's.
    if (error instanceof PlaneCallError && error.errorName === 'OUTSIDE_REPOSITORY') return { decision: 'allow' };
    if (override !== undefined) return { decision: 'allow' };
    const message = error instanceof Error ? error.message : String(error);
    return deny(`The fleet could not check this write (${message}). Writes stay refused until the check works; the operator can let one through with FLEET_OVERRIDE="<reason>".`);
  }
}

/** The answer as Claude Code reads it from stdout. */
export function claudeHookOutput(answer: ClaudeHookAnswer): string {
  if (answer.decision === 'allow') return '';
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: answer.reason } })}\n`;
}

function deny(reason: string): ClaudeHookAnswer {
  return { decision: 'deny', reason };
}

/** The files a tool call writes: a file tool's file_path, or the path fields of an MCP write tool (best effort). */
function writtenPaths(tool: string, input: Record<string, unknown>): string[] {
  if ((CLAUDE_WRITE_TOOLS as readonly string[]).includes(tool)) {
    const target = input.file_path ?? input.notebook_path;
    return typeof target === 'string' && target !== '' ? [target] : [];
  }
  const mcp = /^mcp__.+?__(.+)$/.exec(tool);
  // The fleet's own tools name paths to check or claim, not to write.
  if (!mcp || mcp[1]!.startsWith('fleet_') || !MCP_WRITE_VERB.test(mcp[1]!)) return [];
  return MCP_PATH_FIELDS.flatMap((field) => [input[field]].flat()).filter((value): value is string => typeof value === 'string' && value !== '');
}
