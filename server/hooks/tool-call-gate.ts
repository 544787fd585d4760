import { PlaneCallError } from '../client/plane-call-error.js';
import { answerForCommandVerdict, answerForFailure, answerForVerdict, planFileCheck, planShellCheck, toolCallWriter, type ClaudeHookAnswer, type ToolHook } from './claude-write-check.js';
import { runCommandCheck, runHookCheck } from './hook-check.js';
import type { OpenHookPlane } from './hook-plane.js';
import { answerWithin } from './plane-deadline.js';

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
 * a reason the model reads. The full verb and the lean runner differ only in `open`.
 */
export async function gateToolCall(hook: ToolHook, home: string, env: NodeJS.ProcessEnv, { cwd, sessionId }: ToolCallSession, writes: ToolCallWrites, open: OpenHookPlane): Promise<ClaudeHookAnswer> {
  const writer = toolCallWriter(hook, home, env, sessionId);
  const decide = async (): Promise<ClaudeHookAnswer> => {
    try {
      if ('command' in writes) {
        const plan = planShellCheck(writer, cwd, writes.command);
        return 'answer' in plan ? plan.answer : answerForCommandVerdict(await runCommandCheck(plan.request, open));
      }
      const plan = planFileCheck(writer, cwd, writes.paths);
      return 'answer' in plan ? plan.answer : answerForVerdict(await runHookCheck(plan.request, open), hook);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return answerForFailure(error instanceof PlaneCallError ? error.errorName : undefined, message, writer.override);
    }
  };
  return answerWithin(home, decide(), (why) => answerForFailure(undefined, why, writer.override));
}
