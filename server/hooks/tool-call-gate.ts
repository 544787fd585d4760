import { PlaneCallError } from '../client/plane-call-error.js';
import { answerForCommandVerdict, answerForFailure, answerForVerdict, planFileCheck, planShellCheck, toolCallWriter, type ClaudeHookAnswer, type ToolHook } from './claude-write-check.js';
import { keepToolMark, type MarkRequest } from './claude-tool-marks.js';
import { explainForecast } from './forecast-note.js';
import { runCommandCheck, runHookCheck } from './hook-check.js';
import type { MarkAsked } from './hook-check-request.js';
import type { OpenHookPlane } from './hook-plane.js';
import { answerWithin } from './plane-deadline.js';

/** What a runtime's PreToolUse hook asks about: a shell command, or the files a tool writes (absolute, or relative to cwd). */
export type ToolCallWrites = { command: string } | { paths: string[] };

/** The hook's own process as a PreToolUse hook reads it: its cwd, and the processes it runs under where they are not the running process's (runtimeAncestry): a hook front's, answered in the plane. */
export interface HookProcess {
  cwd: string;
  runtimePids?: number[] | undefined;
}

/** Where the call runs: the payload's cwd and session_id, and the hook's runtimePids (HookProcess). */
export interface ToolCallSession {
  cwd: string;
  sessionId?: string | undefined;
  runtimePids?: number[] | undefined;
}

/**
 * The decision of a runtime's PreToolUse hook (Claude Code's, Codex's) on one tool call, for the
 * session's agent (FLEET_AS, else the agent bound to the session, else the agent registered for
 * cwd's worktree): the plane judges a shell
 * command, or each written file as its real path. Allow is the runtime's own rules; deny carries
 * a reason the model reads. An allowed call that `mark` names keeps the watcher's mark for its
 * PostToolUse (asked with the check). The full verb and the lean runner differ only in `open`.
 */
export async function gateToolCall(hook: ToolHook, home: string, env: NodeJS.ProcessEnv, { cwd, sessionId, runtimePids }: ToolCallSession, writes: ToolCallWrites, open: OpenHookPlane, mark?: MarkRequest): Promise<ClaudeHookAnswer> {
  const writer = toolCallWriter(hook, home, env, sessionId, runtimePids);
  const asked = mark && { mark: { worktree: mark.worktree, source: mark.tool } };
  /** The mark the check took: a number, null where nothing is watched, undefined when no check took one. */
  let taken: number | null | undefined;
  const decide = async (): Promise<ClaudeHookAnswer> => {
    try {
      if ('command' in writes) {
        const plan = planShellCheck(writer, cwd, writes.command);
        if ('answer' in plan) return plan.answer;
        const verdict = await withMarkIfTaken(asked, (extra) => runCommandCheck({ ...plan.request, ...extra }, open));
        taken = verdict.mark;
        return answerForCommandVerdict(verdict);
      }
      const plan = planFileCheck(writer, cwd, writes.paths);
      if ('answer' in plan) return plan.answer;
      const verdict = await withMarkIfTaken(asked, (extra) => runHookCheck({ ...plan.request, ...extra }, open));
      taken = verdict.mark;
      const answer = answerForVerdict(verdict, hook);
      // Claude Code reads a PreToolUse note after the tool's result: the forecast needs no PostToolUse on the file tools.
      return answer.decision === 'allow' && hook === 'claude-pre-tool-use' && verdict.conflicts?.length ? { ...answer, context: explainForecast(verdict.conflicts) } : answer;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return answerForFailure(error instanceof PlaneCallError ? error.errorName : undefined, message, writer.override);
    }
  };
  const answer = await answerWithin(home, decide(), (why) => answerForFailure(undefined, why, writer.override));
  if (mark && answer.decision === 'allow') await keepToolMark(mark, taken, home, env, sessionId, open, hook);
  return answer;
}

/**
 * Asks the check with the mark, or again without it where the plane refuses the param: a plane
 * started before checks took marks (still running after an update) would otherwise refuse every
 * shell call. Its mark is then asked apart (keepToolMark), as before.
 */
async function withMarkIfTaken<T>(asked: { mark: MarkAsked } | undefined, check: (extra: { mark?: MarkAsked }) => Promise<T>): Promise<T> {
  if (asked === undefined) return check({});
  try {
    return await check(asked);
  } catch (error) {
    if (error instanceof PlaneCallError && error.errorName === 'INVALID_PARAMS' && error.message.includes('"mark"')) return check({});
    throw error;
  }
}
