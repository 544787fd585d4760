// The decisions of the Claude Code PreToolUse hook on a file write, from node builtins only: the
// full CLI verb (claude-pre-tool-use.ts) and the lean hook runner (lean/) both decide through these.
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { HookVerdict } from './hook-check.js';
import { hookEnvironment, type HookCheckRequest } from './hook-check-request.js';
import { explainRefusal } from './refusal-message.js';

/** The tools Claude Code writes files with; the settings `fleet install-hooks` writes match these. */
export const CLAUDE_WRITE_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'] as const;

/** What the hook prints on stdout; it always exits 0 (Claude Code's protocol for a decision). */
export type ClaudeHookAnswer = { decision: 'allow' } | { decision: 'deny'; reason: string };

/** The part of a PreToolUse event a write check reads. */
export interface WriteToolEvent {
  tool_name: string;
  tool_input?: Record<string, unknown> | undefined;
  cwd?: string | undefined;
}

export function isWriteTool(toolName: string): boolean {
  return (CLAUDE_WRITE_TOOLS as readonly string[]).includes(toolName);
}

/** What to ask the plane about a write, or the answer when there is nothing to ask (no file named). */
export function planWriteCheck(event: WriteToolEvent, home: string, env: NodeJS.ProcessEnv): { request: HookCheckRequest } | { answer: ClaudeHookAnswer } {
  const target = event.tool_input?.file_path ?? event.tool_input?.notebook_path;
  if (typeof target !== 'string' || target === '') return { answer: { decision: 'allow' } };
  const file = isAbsolute(target) ? target : resolve(event.cwd ?? process.cwd(), target);
  const { callsign, override } = hookEnvironment(env);
  return {
    request: {
      home,
      hook: 'claude-pre-tool-use',
      root: nearestDirectory(file),
      paths: [file],
      worktree: file,
      agentOnly: true,
      ...(callsign !== undefined && { callsign }),
      ...(override !== undefined && { override }),
    },
  };
}

/** The plane's verdict as the hook's answer. */
export function answerForVerdict(verdict: HookVerdict): ClaudeHookAnswer {
  if (verdict.allowed || verdict.overridden) return { decision: 'allow' };
  return deny(explainRefusal(verdict, { hook: 'claude-pre-tool-use' }));
}

/** The answer when the check failed: `errorName` is the plane's error, if it answered with one. */
export function answerForFailure(errorName: string | undefined, message: string, request: HookCheckRequest): ClaudeHookAnswer {
  // Territory is per repository: a file outside every repository is nobody's.
  if (errorName === 'OUTSIDE_REPOSITORY') return { decision: 'allow' };
  if (request.override !== undefined) return { decision: 'allow' };
  return deny(`The fleet could not check this write (${message}). Writes stay refused until the check works; the operator can let one through with FLEET_OVERRIDE="<reason>".`);
}

/** The answer as Claude Code reads it from stdout. */
export function claudeHookOutput(answer: ClaudeHookAnswer): string {
  if (answer.decision === 'allow') return '';
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: answer.reason } })}\n`;
}

export function deny(reason: string): ClaudeHookAnswer {
  return { decision: 'deny', reason };
}

/** The directory the file lives (or will live) in, climbing to one that exists. */
function nearestDirectory(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(dir) && statSync(dir).isDirectory()) return dir;
    if (dirname(dir) === dir) return dir;
  }
}
