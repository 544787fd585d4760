// The installed hook of every runtime event (FLEET_HOME/bin/fleet-hook VERB --home H [--root R]):
// it runs around every tool call of every agent, so it loads node builtins and the hooks' own
// modules only (hook-verbs.ts and below, each verb's on demand), and talks to the running plane
// through its own small socket client. It runs exactly the full verb's logic; what it leaves to the
// full CLI verb `fleet hook …` (same arguments, same stdin) is what needs the CLI: starting a plane
// where none runs, and arguments it does not know.
import { writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { oneConnectionPerRun } from '../hook-plane.js';
import { hookInput, isHookVerb, runHook, takesRoot, type HookVerb } from '../hook-verbs.js';
import { openLeanPlane, runningPlane } from './plane-call.js';

/** The full CLI next to this runner (tools/bundle.mjs points it at dist/fleet.cjs in the bundle). */
const FULL_CLI = new URL('../../cli/main.js', import.meta.url);

const args = process.argv.slice(2);

void (async () => {
  const call = leanCall(args);
  const stdin = await hookInput(call?.verb ?? (isHookVerb(args[0]) ? args[0] : 'claude-pre-tool-use'));
  const plane = call && runningPlane(call.home);
  if (!call || !plane) return finish('', '', await runFullVerb(stdin, call?.verb));
  try {
    // One connection for the run; it ends with the runner's exit.
    const { open } = oneConnectionPerRun((client) => openLeanPlane(call.home, plane, client));
    const outcome = await runHook(call.verb, { ...call, stdin, env: process.env, cwd: process.cwd(), open });
    finish(outcome.stdout, outcome.stderr, outcome.code);
  } catch (error) {
    // As the CLI reports a verb's failure (server/cli/main.ts).
    finish('', `fleet hook: ${error instanceof Error ? error.message : String(error)}\n`, 1);
  }
})();

/** The arguments as install-hooks writes them: VERB --home H, and --root R for Codex's. */
function leanCall(argv: string[]): { verb: HookVerb; home: string; root: string } | undefined {
  const [verb, homeFlag, home, rootFlag, root] = argv;
  if (!isHookVerb(verb) || homeFlag !== '--home' || home === undefined) return undefined;
  if (!takesRoot(verb)) return argv.length === 3 ? { verb, home, root: '' } : undefined;
  return argv.length === 5 && rootFlag === '--root' && root !== undefined ? { verb, home, root } : undefined;
}


/**
 * Says what the hook says and exits. Written straight to the descriptors: setting up
 * process.stdout's stream costs more than the rest of an allowed call's output (none). A pipe
 * whose reader is slow (EAGAIN) gets the rest through the stream, which waits for it.
 */
function finish(stdout: string, stderr: string, code: number): void {
  const unwritten = writeNow(2, stderr);
  if (unwritten.length > 0) process.stderr.write(unwritten);
  const rest = writeNow(1, stdout);
  if (rest.length === 0) process.exit(code);
  process.stdout.write(rest, () => process.exit(code));
}

/** What of `text` could not be written to `fd` without waiting. */
function writeNow(fd: number, text: string): Buffer {
  let bytes = Buffer.from(text);
  try {
    while (bytes.length > 0) bytes = bytes.subarray(writeSync(fd, bytes));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
  }
  return bytes;
}

async function runFullVerb(input: string, verb: HookVerb | undefined): Promise<number> {
  // Loaded only here: a hook that decides by itself never pays for it.
  const { spawnSync } = await import('node:child_process');
  // git's pre-commit hook gets no event: the verb reads nothing, and the terminal stays the verb's.
  const stdin = verb === 'git-pre-commit' ? 'inherit' : 'pipe';
  const run = spawnSync(process.execPath, [fileURLToPath(FULL_CLI), 'hook', ...args], { input, stdio: [stdin, 'inherit', 'inherit'] });
  if (run.error) {
    process.stderr.write(`fleet-hook: could not run the fleet CLI (${run.error.message})\n`);
    return 1;
  }
  return run.status ?? 1;
}
