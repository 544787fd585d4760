import { claudeHookOutput, claudePreToolUse } from '../../hooks/claude-pre-tool-use.js';
import { gitPreCommit } from '../../hooks/git-pre-commit.js';
import { parseVerbArgs } from '../args.js';
import { UsageError } from '../cli-error.js';
import { readStdin } from '../../hooks/read-stdin.js';

const USAGE = 'fleet hook claude-pre-tool-use | git-pre-commit [--home DIR]   (installed by `fleet install-hooks`; they read FLEET_AS and FLEET_OVERRIDE)';

/** `fleet hook …`: speaks its caller's protocol (Claude Code's JSON, git's exit code), not the CLI's exit codes. */
export async function hookVerb(argv: string[]): Promise<number> {
  const { positionals, home } = parseVerbArgs(argv, {}, USAGE);
  const [which] = positionals;
  switch (which) {
    case 'claude-pre-tool-use': {
      const answer = await claudePreToolUse(await readStdin(), home, process.env);
      process.stdout.write(claudeHookOutput(answer));
      return 0;
    }
    case 'git-pre-commit':
      return gitPreCommit(home, process.cwd(), process.env, (text) => process.stderr.write(text));
    default:
      throw new UsageError(`usage: ${USAGE}`);
  }
}
