// Every hook verb, as both its callers run it: the full CLI (`fleet hook VERB`, with PlaneClient)
// and the installed lean runner (lean/fleet-hook.ts, with its small socket client). Builtin-only
// below this point, so the lean runner loads no zod, no ws, no MCP SDK and none of the CLI; and each
// verb's modules load when that verb runs, so a tool call's hook loads none of the session hooks'
// (durable writes, git) or the commit hook's.
import type { OpenHookPlane } from './hook-plane.js';
import { readStdin } from './read-stdin.js';

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
  /** The processes the hook runs under, where they are not this process's (the plane answering a hook front); else runtimeAncestry's. */
  runtimePids?: number[];
}

/** What the hook says: stdout in its runtime's protocol (Claude Code's and Codex's JSON), git's exit code and stderr. */
export interface HookOutcome {
  stdout: string;
  stderr: string;
  code: number;
}

const said = (stdout: string): HookOutcome => ({ stdout, stderr: '', code: 0 });

/** Runs one hook; a failure it does not answer itself (SessionEnd's, PostToolUse's) is thrown, for the caller to report. */
export async function runHook(verb: HookVerb, { stdin, home, root, env, cwd, open, runtimePids }: HookRun): Promise<HookOutcome> {
  switch (verb) {
    case 'claude-pre-tool-use': {
      // An allowed shell or MCP call also leaves the watcher's mark, so PostToolUse can tell what it changed.
      const { claudeHookOutput, claudePreToolUse } = await import('./claude-pre-tool-use.js');
      return said(claudeHookOutput(await claudePreToolUse(stdin, home, env, open, { cwd, runtimePids })));
    }
    case 'claude-post-tool-use': {
      const { postToolUse, postToolUseOutput } = await import('./post-tool-use.js');
      return said(postToolUseOutput(await postToolUse('claude-post-tool-use', stdin, home, env, open)));
    }
    case 'claude-session-start': {
      const { SESSION_RUNTIMES, sessionStart } = await import('./session-hooks.js');
      return said(await sessionStart(SESSION_RUNTIMES['claude-code'], stdin, home, env, open));
    }
    case 'claude-session-end': {
      const { claudeSessionEnd } = await import('./session-hooks.js');
      // Claude Code shows a failing SessionEnd hook's stderr to the user only; the session ends either way.
      await claudeSessionEnd(stdin, home, env, open);
      return said('');
    }
    case 'claude-notification': {
      const { claudeNotification } = await import('./person-wait-hooks.js');
      // Observes only: says nothing, so the person's own prompt decides (DESIGN §16).
      await claudeNotification(stdin, home, env, open);
      return said('');
    }
    case 'codex-pre-tool-use': {
      const [{ claudeHookOutput }, { codexPreToolUse }] = await Promise.all([import('./claude-write-check.js'), import('./codex-pre-tool-use.js')]);
      // Codex reads the same deny shape Claude Code does (hookSpecificOutput.permissionDecision).
      return said(claudeHookOutput(await codexPreToolUse(stdin, home, root, env, open, { cwd, runtimePids })));
    }
    case 'codex-post-tool-use': {
      const [{ postToolUseOutput }, { codexPostToolUse }] = await Promise.all([import('./post-tool-use.js'), import('./codex-lifecycle.js')]);
      // Codex reads PostToolUse's block as Claude Code does (top-level decision and reason).
      return said(postToolUseOutput(await codexPostToolUse(stdin, home, root, env, open)));
    }
    case 'codex-session-start': {
      const { codexSessionStart } = await import('./codex-lifecycle.js');
      return said(await codexSessionStart(stdin, home, root, env, open));
    }
    case 'codex-permission-request': {
      const [{ inSessionRepository }, { codexPermissionRequest }] = await Promise.all([import('./codex-lifecycle.js'), import('./person-wait-hooks.js')]);
      // Observes only: no JSON and exit 0 is no verdict, so Codex shows its approval prompt as ever.
      if (inSessionRepository(stdin, root)) await codexPermissionRequest(stdin, home, env, open);
      return said('');
    }
    case 'git-pre-commit': {
      const { gitPreCommit } = await import('./git-pre-commit.js');
      let stderr = '';
      const code = await gitPreCommit(home, cwd, env, (text) => (stderr += text), open);
      return { stdout: '', stderr, code };
    }
  }
}
