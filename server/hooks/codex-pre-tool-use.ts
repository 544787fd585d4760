import { realpathSync } from 'node:fs';
import { z } from 'zod';
import { writtenPaths, type ClaudeHookAnswer } from './claude-pre-tool-use.js';
import { patchedPaths } from './codex-patch-paths.js';
import { commonDirectory, worktreeRoot } from './git.js';
import { deny, gateToolCall } from './tool-call-gate.js';

/** Codex names its shell tools (shell, exec_command) `Bash` in hook payloads. */
export const CODEX_SHELL_TOOL = 'Bash';
/** Codex's file edit tool: tool_input.command carries the patch text. */
export const CODEX_PATCH_TOOL = 'apply_patch';
/** What the installed hook matches (a regex in Codex): the shell, apply_patch, and every MCP tool. */
export const CODEX_MATCHER = `${CODEX_SHELL_TOOL}|${CODEX_PATCH_TOOL}|mcp__.*`;

// Codex's PreToolUse input (codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json): only the fields read here.
const preToolUseSchema = z.looseObject({
  hook_event_name: z.literal('PreToolUse'),
  tool_name: z.string(),
  tool_input: z.unknown(),
  cwd: z.string().min(1),
});

/**
 * `fleet hook codex-pre-tool-use --root REPO`: denies a Codex tool call that writes outside the
 * writing agent's territory. Codex reads user-level hooks in every project, so the hook answers only
 * for sessions in REPO's repository (any of its worktrees) and stays silent elsewhere. Allowing
 * prints nothing, so Codex's own approval rules still apply.
 */
export async function codexPreToolUse(stdin: string, home: string, root: string, env: NodeJS.ProcessEnv): Promise<ClaudeHookAnswer> {
  let event: z.infer<typeof preToolUseSchema>;
  try {
    event = preToolUseSchema.parse(JSON.parse(stdin));
  } catch (error) {
    return deny(`The fleet hook could not read Codex's PreToolUse input (${(error as Error).message.split('\n')[0]}), so it cannot tell whether this write is inside your territory.`);
  }
  const { cwd } = event;
  if (!inRepository(cwd, root)) return { decision: 'allow' };
  const input = typeof event.tool_input === 'object' && event.tool_input !== null ? (event.tool_input as Record<string, unknown>) : {};
  const text = typeof input.command === 'string' ? input.command : '';
  if (event.tool_name === CODEX_SHELL_TOOL) return gateToolCall('codex-pre-tool-use', home, env, cwd, { command: text });
  return gateToolCall('codex-pre-tool-use', home, env, cwd, { paths: event.tool_name === CODEX_PATCH_TOOL ? patchedPaths(text) : writtenPaths(event.tool_name, input) });
}

/** Whether `cwd` is in a worktree of the repository at `root` (they share git's common dir). */
function inRepository(cwd: string, root: string): boolean {
  const here = worktreeRoot(cwd);
  if (here === undefined) return false;
  try {
    return realpathSync(commonDirectory(here)) === realpathSync(commonDirectory(root));
  } catch {
    return false;
  }
}

