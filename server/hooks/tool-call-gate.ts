import { PlaneCallError } from '../client/plane-client.js';
import { answerForCommandVerdict, answerForFailure, answerForVerdict, planFileCheck, planShellCheck, toolCallWriter, type ClaudeHookAnswer, type ToolHook } from './claude-write-check.js';
import { runCommandCheck, runHookCheck } from './hook-check.js';
import { answerWithin, PLANE_SILENT } from './plane-deadline.js';

/** What a runtime's PreToolUse hook asks about: a shell command, or the files a tool writes (absolute, or relative to cwd). */
export type ToolCallWrites = { command: string } | { paths: string[] };

/** Where the call runs: the payload's cwd and session_id. */
export interface ToolCallSession {
  cwd: string;
  sessionId?: string | undefined;
}

/**
 * The decision of a runtime's PreToolUse hook (Claude Code's, Codex's) on one tool call, for the
 * session's agent (FLEET_AS, else the agent bound to the session, else the agent registered for
 * cwd's worktree): the plane judges a shell
 * command, or each written file as its real path. Allow is the runtime's own rules; deny carries
 * a reason the model reads. The lean runner decides through the same plan and answer functions.
 */
export async function gateToolCall(hook: ToolHook, home: string, env: NodeJS.ProcessEnv, { cwd, sessionId }: ToolCallSession, writes: ToolCallWrites): Promise<ClaudeHookAnswer> {
  const writer = toolCallWriter(hook, home, env, sessionId);
  const decide = async (): Promise<ClaudeHookAnswer> => {
    try {
      if ('command' in writes) {
        const plan = planShellCheck(writer, cwd, writes.command);
        return 'answer' in plan ? plan.answer : answerForCommandVerdict(await runCommandCheck(plan.request));
      }
      const plan = planFileCheck(writer, cwd, writes.paths);
      return 'answer' in plan ? plan.answer : answerForVerdict(await runHookCheck(plan.request), hook);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return answerForFailure(error instanceof PlaneCallError ? error.errorName : undefined, message, writer.override);
    }
  };
  return answerWithin(decide(), () => answerForFailure(undefined, PLANE_SILENT, writer.override));
}
