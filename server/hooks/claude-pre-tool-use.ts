import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { PlaneCallError } from '../client/plane-client.js';
import { hookEnvironment, runHookCheck } from './hook-check.js';
import { explainRefusal } from './refusal-message.js';

/** The tools Claude Code writes files with; the settings `fleet install-hooks` writes match these. */
export const CLAUDE_WRITE_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'] as const;

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
  if (!(CLAUDE_WRITE_TOOLS as readonly string[]).includes(event.tool_name)) return { decision: 'allow' };
  const target = event.tool_input?.file_path ?? event.tool_input?.notebook_path;
  if (typeof target !== 'string' || target === '') return { decision: 'allow' };
  const file = isAbsolute(target) ? target : resolve(event.cwd ?? process.cwd(), target);
  const { callsign, override } = hookEnvironment(env);
  try {
    const verdict = await runHookCheck({
      home,
      hook: 'claude-pre-tool-use',
      root: nearestDirectory(file),
      paths: [file],
      worktree: file,
      agentOnly: true,
      ...(callsign !== undefined && { callsign }),
      ...(override !== undefined && { override }),
    });
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

/** The directory the file lives (or will live) in, climbing to one that exists. */
function nearestDirectory(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(dir) && statSync(dir).isDirectory()) return dir;
    if (dirname(dir) === dir) return dir;
  }
}
