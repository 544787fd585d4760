import { inRepository } from '../gate/repository-directory.js';
import type { OpenHookPlane } from './hook-plane.js';
import { postToolUse, type PostToolAnswer } from './post-tool-use.js';

/**
 * Codex's SessionStart and PostToolUse hooks (DESIGN §11). Codex reads the user's hooks.json in
 * every project, so each entry carries `--root REPO` and answers only for sessions in a worktree of
 * that repository, silent elsewhere. Codex has no SessionEnd: its sessions' claims are not escrowed.
 */

/** `fleet hook codex-session-start --root REPO`: as Claude Code's (join or re-attach, bind the session, resume as additionalContext). */
export async function codexSessionStart(stdin: string, home: string, root: string, env: NodeJS.ProcessEnv, open: OpenHookPlane): Promise<string> {
  if (!inSessionRepository(stdin, root)) return '';
  // Loaded here only: the session hooks' modules (durable writes, git) would cost every PostToolUse too.
  const { SESSION_RUNTIMES, sessionStart } = await import('./session-hooks.js');
  return sessionStart(SESSION_RUNTIMES.codex, stdin, home, env, open);
}

/** `fleet hook codex-post-tool-use --root REPO`: reports what the call changed in others' territory, as Claude Code's does. */
export async function codexPostToolUse(stdin: string, home: string, root: string, env: NodeJS.ProcessEnv, open: OpenHookPlane): Promise<PostToolAnswer> {
  return inSessionRepository(stdin, root) ? postToolUse('codex-post-tool-use', stdin, home, env, open) : { decision: 'none' };
}

/** The payload's cwd is in a worktree of REPO; an unreadable payload is nobody's (it carries no session to act for). */
export function inSessionRepository(stdin: string, root: string): boolean {
  try {
    const cwd = (JSON.parse(stdin) as { cwd?: unknown } | null)?.cwd;
    return typeof cwd === 'string' && cwd !== '' && inRepository(cwd, root);
  } catch {
    return false;
  }
}
