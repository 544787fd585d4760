// Every hook verb, as both its callers run it: the full CLI (`fleet hook VERB`, with PlaneClient)
// and the installed lean runner (lean/fleet-hook.ts, with its small socket client). Builtin-only
// below this point, so the lean runner loads no zod, no ws, no MCP SDK and none of the CLI.
import { claudeHookOutput, claudePreToolUse } from './claude-pre-tool-use.js';
import { codexPostToolUse, codexSessionStart, inSessionRepository } from './codex-lifecycle.js';
import { codexPreToolUse } from './codex-pre-tool-use.js';
import { gitPreCommit } from './git-pre-commit.js';
import type { OpenHookPlane } from './hook-plane.js';
import { claudeNotification, codexPermissionRequest } from './person-wait-hooks.js';
import { markBeforeTool, postToolUse, postToolUseOutput } from './post-tool-use.js';
import { readStdin } from './read-stdin.js';
import { claudeSessionEnd, SESSION_RUNTIMES, sessionStart } from './session-hooks.js';

export const HOOK_VERBS = [
  'claude-pre-tool-use',
  'claude-post-tool-use',
  'claude-session-start',
  'claude-session-end',
  'claude-notification',
  'codex-pre-tool-use',
  'codex-post-tool-use',
  'codex-session-start',
  'codex-permission-request',
  'git-pre-commit',
] as const;
export type HookVerb = (typeof HOOK_VERBS)[number];

export const isHookVerb = (name: string | undefined): name is HookVerb => (HOOK_VERBS as readonly (string | undefined)[]).includes(name);

/** Codex reads the user's hooks.json in every project: its hooks answer for one repository's sessions (`--root REPO`). */
export const takesRoot = (verb: HookVerb): boolean => verb.startsWith('codex-');

/** The event on stdin; git gives its pre-commit hook none (stdin may be the terminal). */
export const hookInput = (verb: HookVerb): Promise<string> => (verb === 'git-pre-commit' ? Promise.resolve('') : readStdin());

export interface HookRun {
  stdin: string;
  home: string;
  /** `--root REPO` of the Codex verbs. */
  root: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  open: OpenHookPlane;
}

/** What the hook says: stdout in its runtime's protocol (Claude Code's and Codex's JSON), git's exit code and stderr. */
export interface HookOutcome {
  stdout: string;
  stderr: string;
  code: number;
}

const said = (stdout: string): HookOutcome => ({ stdout, stderr: '', code: 0 });

/** Runs one hook; a failure it does not answer itself (SessionEnd's, PostToolUse's) is thrown, for the caller to report. */
export async function runHook(verb: HookVerb, { stdin, home, root, env, cwd, open }: HookRun): Promise<HookOutcome> {
  switch (verb) {
    case 'claude-pre-tool-use': {
      const answer = await claudePreToolUse(stdin, home, env, open);
      // Allowed: mark the worktree so PostToolUse can tell what this call changed.
      if (answer.decision === 'allow') await markBeforeTool(stdin, home, env, open, 'claude-pre-tool-use');
      return said(claudeHookOutput(answer));
    }
    case 'claude-post-tool-use':
      return said(postToolUseOutput(await postToolUse('claude-post-tool-use', stdin, home, env, open)));
    case 'claude-session-start':
      return said(await sessionStart(SESSION_RUNTIMES['claude-code'], stdin, home, env, open));
    case 'claude-session-end':
      // Claude Code shows a failing SessionEnd hook's stderr to the user only; the session ends either way.
      await claudeSessionEnd(stdin, home, env, open);
      return said('');
    case 'claude-notification':
      // Observes only: says nothing, so the person's own prompt decides (DESIGN §16).
      await claudeNotification(stdin, home, env, open);
      return said('');
    case 'codex-pre-tool-use':
      // Codex reads the same deny shape Claude Code does (hookSpecificOutput.permissionDecision).
      return said(claudeHookOutput(await codexPreToolUse(stdin, home, root, env, open)));
    case 'codex-post-tool-use':
      // Codex reads PostToolUse's block as Claude Code does (top-level decision and reason).
      return said(postToolUseOutput(await codexPostToolUse(stdin, home, root, env, open)));
    case 'codex-session-start':
      return said(await codexSessionStart(stdin, home, root, env, open));
    case 'codex-permission-request':
      // Observes only: no JSON and exit 0 is no verdict, so Codex shows its approval prompt as ever.
      if (inSessionRepository(stdin, root)) await codexPermissionRequest(stdin, home, env, open);
      return said('');
    case 'git-pre-commit': {
      let stderr = '';
      const code = await gitPreCommit(home, cwd, env, (text) => (stderr += text), open);
      return { stdout: '', stderr, code };
    }
  }
}
