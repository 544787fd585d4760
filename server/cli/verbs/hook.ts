import { claudeHookOutput, claudePreToolUse } from '../../hooks/claude-pre-tool-use.js';
import { codexPreToolUse } from '../../hooks/codex-pre-tool-use.js';
import { gitPreCommit } from '../../hooks/git-pre-commit.js';
import { parseVerbArgs, requireValue } from '../args.js';
import { UsageError } from '../cli-error.js';
import { readStdin } from '../../hooks/read-stdin.js';

const USAGE = 'fleet hook claude-pre-tool-use | codex-pre-tool-use --root REPO | git-pre-commit [--home DIR]   (installed by `fleet install-hooks`; they read FLEET_AS and FLEET_OVERRIDE)';

/** `fleet hook …`: speaks its caller's protocol (Claude Code's JSON, git's exit code), not the CLI's exit codes. */
export async function hookVerb(argv: string[]): Promise<number> {
  const { positionals, home, values } = parseVerbArgs(argv, { root: { type: 'string' } }, USAGE);
  const [which] = positionals;
  switch (which) {
    case 'claude-pre-tool-use': {
      const answer = await claudePreToolUse(await readStdin(), home, process.env);
      process.stdout.write(claudeHookOutput(answer));
      return 0;
    }
    case 'codex-pre-tool-use': {
      // Codex reads the same deny shape Claude Code does (hookSpecificOutput.permissionDecision).
      const answer = await codexPreToolUse(await readStdin(), home, requireValue(values.root, '--root', USAGE), process.env);
      process.stdout.write(claudeHookOutput(answer));
      return 0;
    }
    case 'git-pre-commit':
      return gitPreCommit(home, process.cwd(), process.env, (text) => process.stderr.write(text));
    default:
      throw new UsageError(`usage: ${USAGE}`);
  }
}
