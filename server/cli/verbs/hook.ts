import { claudeHookOutput, claudePreToolUse } from '../../hooks/claude-pre-tool-use.js';
import { markBeforeTool, postToolUse, postToolUseOutput } from '../../hooks/post-tool-use.js';
import { claudeSessionEnd, SESSION_RUNTIMES, sessionStart } from '../../hooks/session-hooks.js';
import { codexPostToolUse, codexSessionStart } from '../../hooks/codex-lifecycle.js';
import { codexPreToolUse } from '../../hooks/codex-pre-tool-use.js';
import { gitPreCommit } from '../../hooks/git-pre-commit.js';
import { parseVerbArgs, requireValue } from '../args.js';
import { UsageError } from '../cli-error.js';
import { readStdin } from '../../hooks/read-stdin.js';

const USAGE = 'fleet hook claude-pre-tool-use | claude-post-tool-use | claude-session-start | claude-session-end | codex-pre-tool-use | codex-post-tool-use | codex-session-start --root REPO | git-pre-commit [--home DIR]   (installed by `fleet install-hooks`; they read FLEET_AS and FLEET_OVERRIDE)';

/** `fleet hook …`: speaks its caller's protocol (Claude Code's JSON, git's exit code), not the CLI's exit codes. */
export async function hookVerb(argv: string[]): Promise<number> {
  const { positionals, home, values } = parseVerbArgs(argv, { root: { type: 'string' } }, USAGE);
  const [which] = positionals;
  switch (which) {
    case 'claude-pre-tool-use': {
      const stdin = await readStdin();
      const answer = await claudePreToolUse(stdin, home, process.env);
      process.stdout.write(claudeHookOutput(answer));
      // Allowed: mark the worktree so PostToolUse can tell what this call changed.
      if (answer.decision === 'allow') await markBeforeTool(stdin, home, process.env);
      return 0;
    }
    case 'claude-post-tool-use':
      process.stdout.write(postToolUseOutput(await postToolUse('claude-post-tool-use', await readStdin(), home, process.env)));
      return 0;
    case 'claude-session-start':
      process.stdout.write(await sessionStart(SESSION_RUNTIMES['claude-code'], await readStdin(), home, process.env));
      return 0;
    case 'claude-session-end':
      // Claude Code shows a failing SessionEnd hook's stderr to the user only; the session ends either way.
      await claudeSessionEnd(await readStdin(), home, process.env);
      return 0;
    case 'codex-pre-tool-use': {
      // Codex reads the same deny shape Claude Code does (hookSpecificOutput.permissionDecision).
      const answer = await codexPreToolUse(await readStdin(), home, requireValue(values.root, '--root', USAGE), process.env);
      process.stdout.write(claudeHookOutput(answer));
      return 0;
    }
    case 'codex-post-tool-use':
      // Codex reads PostToolUse's block as Claude Code does (top-level decision and reason).
      process.stdout.write(postToolUseOutput(await codexPostToolUse(await readStdin(), home, requireValue(values.root, '--root', USAGE), process.env)));
      return 0;
    case 'codex-session-start':
      process.stdout.write(await codexSessionStart(await readStdin(), home, requireValue(values.root, '--root', USAGE), process.env));
      return 0;
    case 'git-pre-commit':
      return gitPreCommit(home, process.cwd(), process.env, (text) => process.stderr.write(text));
    default:
      throw new UsageError(`usage: ${USAGE}`);
  }
}
