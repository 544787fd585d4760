import { dirname, isAbsolute, resolve } from 'node:path';
import { PlaneCallError } from '../client/plane-client.js';
import { existingDirectory, realPath } from '../gate/real-path.js';
import type { ClaudeHookAnswer } from './claude-pre-tool-use.js';
import { explainCommandRefusal } from './command-refusal.js';
import { hookEnvironment, runCommandCheck, runHookCheck } from './hook-check.js';
import { explainRefusal } from './refusal-message.js';

/** What a runtime's PreToolUse hook asks about: a shell command, or the files a tool writes (absolute, or relative to cwd). */
export type ToolCallWrites = { command: string } | { paths: string[] };

/**
 * The decision of a runtime's PreToolUse hook (Claude Code's, Codex's) on one tool call, for the
 * session's agent (FLEET_AS, else the agent registered for cwd's worktree): the plane judges a shell
 * command, or each written file as its real path. Allow is the runtime's own rules; deny carries
 * a reason the model reads.
 */
export async function gateToolCall(hook: 'claude-pre-tool-use' | 'codex-pre-tool-use', home: string, env: NodeJS.ProcessEnv, cwd: string, writes: ToolCallWrites): Promise<ClaudeHookAnswer> {
  const { callsign, override } = hookEnvironment(env);
  const writer = { home, hook, agentOnly: true, ...(callsign !== undefined && { callsign }), ...(override !== undefined && { override }) };
  try {
    if ('command' in writes) {
      if (writes.command.trim() === '') return { decision: 'allow' };
      const verdict = await runCommandCheck({ ...writer, command: writes.command, cwd });
      return verdict.allowed ? { decision: 'allow' } : deny(explainCommandRefusal(verdict));
    }
    if (writes.paths.length === 0) return { decision: 'allow' };
    // Checked as real paths, in the repository they really are in (a link may lead out of one into another).
    const files = writes.paths.map((target) => realPath(isAbsolute(target) ? target : resolve(cwd, target)));
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

export function deny(reason: string): ClaudeHookAnswer {
  return { decision: 'deny', reason };
}
