import { connectToPlane } from '../../client/connect.js';
import { oneConnectionPerRun } from '../../hooks/hook-plane.js';
import { hookInput, HOOK_VERBS, isHookVerb, runHook, takesRoot } from '../../hooks/hook-verbs.js';
import { parseVerbArgs, requireValue } from '../args.js';
import { UsageError } from '../cli-error.js';

const USAGE = `fleet hook ${HOOK_VERBS.join(' | ')} [--home DIR] [--root REPO (the codex- ones)]   (installed by \`fleet install-hooks\`; they read FLEET_AS and FLEET_OVERRIDE)`;

/**
 * `fleet hook …`: speaks its caller's protocol (Claude Code's JSON, git's exit code), not the CLI's
 * exit codes. The installed hooks run the lean runner (FLEET_HOME/bin/fleet-hook), which hands
 * this verb what it does not take itself: no plane running (this one starts it), arguments it
 * does not know.
 */
export async function hookVerb(argv: string[]): Promise<number> {
  const { positionals, home, values } = parseVerbArgs(argv, { root: { type: 'string' } }, USAGE);
  const [which] = positionals;
  if (!isHookVerb(which)) throw new UsageError(`usage: ${USAGE}`);
  const root = takesRoot(which) ? requireValue(values.root, '--root', USAGE) : '';
  // One connection for the run, as the lean runner's: a PostToolUse's questions share it.
  const plane = oneConnectionPerRun((client) => connectToPlane({ home, client }));
  const outcome = await runHook(which, { stdin: await hookInput(which), home, root, env: process.env, cwd: process.cwd(), open: plane.open }).finally(plane.close);
  process.stdout.write(outcome.stdout);
  process.stderr.write(outcome.stderr);
  return outcome.code;
}
