import { DEMO_HELP } from './verbs/demo.js';
import { EXIT, exitCodeFor } from './cli-error.js';

// Each verb's module is loaded when that verb runs: `fleet mcp` and `fleet hook` start without the
// plane, the status screen and the demo (measured: the whole table took ~330 ms to load).
type VerbRun = (argv: string[]) => Promise<number>;
const lazy = <M>(load: () => Promise<M>, pick: (module: M) => VerbRun): VerbRun => async (argv) => pick(await load())(argv);

const verbs: Record<string, { run: (argv: string[]) => Promise<number>; summary: string; /** Flags and what they do, printed under the summary by --help. */ help?: string }> = {
  serve: { run: lazy(() => import('./verbs/serve.js'), (m) => m.serve), summary: 'run the coordination plane in the foreground (npm start does this)' },
  status: { run: lazy(() => import('./verbs/status.js'), (m) => m.statusVerb), summary: 'show the fleet switch, the roster and the claims (--watch: live)' },
  join: { run: lazy(() => import('./verbs/join.js'), (m) => m.joinVerb), summary: 'join the roster as an agent: --callsign X --runtime Y' },
  claim: { run: lazy(() => import('./verbs/territory.js'), (m) => m.claimVerb), summary: 'claim territory: --as X PATTERN…' },
  check: { run: lazy(() => import('./verbs/territory.js'), (m) => m.checkVerb), summary: 'may these paths be written now, and who holds them? PATH…' },
  release: { run: lazy(() => import('./verbs/territory.js'), (m) => m.releaseVerb), summary: 'release claims: --as X PATTERN… or --id ID…' },
  handoff: { run: lazy(() => import('./verbs/handoff.js'), (m) => m.handoffVerb), summary: 'hand work and claims to another agent, or accept/decline one' },
  inbox: { run: lazy(() => import('./verbs/inbox.js'), (m) => m.inboxVerb), summary: 'messages and handoffs waiting for an agent; ack them' },
  work: { run: lazy(() => import('./verbs/work.js'), (m) => m.workVerb), summary: 'the work queue: list, show, add, pull, plan, complete, verify, decide, clarify, answer, artifact' },
  build: { run: lazy(() => import('./verbs/build.js'), (m) => m.buildVerb), summary: 'the build gate: configure it (operator), or have the plane run it' },
  land: { run: lazy(() => import('./verbs/integrate.js'), (m) => m.landVerb), summary: 'queue accepted items (or --branch) on the train to land on the target after a GREEN build; --done marks them landed by hand' },
  integrate: { run: lazy(() => import('./verbs/integrate.js'), (m) => m.integrateVerb), summary: 'the train: configure it (target, remote, batch, build, land on accept, release at), or show it (status)' },
  digest: { run: lazy(() => import('./verbs/digest.js'), (m) => m.digestVerb), summary: 'the heartbeat digest (--publish: record it and write digest.md)' },
  conflicts: { run: lazy(() => import('./verbs/conflicts.js'), (m) => m.conflictsVerb), summary: "live agents' write-sets and the merge conflicts forecast between their branches (and the target)" },
  history: { run: lazy(() => import('./verbs/history.js'), (m) => m.historyVerb), summary: 'who held a path, when, and why each hold ended' },
  events: { run: lazy(() => import('./verbs/events.js'), (m) => m.eventsVerb), summary: 'print the event log (--follow: keep printing)' },
  pause: { run: lazy(() => import('./verbs/control.js'), (m) => m.controlVerb('pause', 'pause')), summary: 'fleet switch: start nothing new' },
  drain: { run: lazy(() => import('./verbs/control.js'), (m) => m.controlVerb('drain', 'drain')), summary: 'fleet switch: finish what is held, pull no new work' },
  resume: { run: lazy(() => import('./verbs/control.js'), (m) => m.controlVerb('run', 'resume')), summary: 'fleet switch: back to run (operator only)' },
  stop: { run: lazy(() => import('./verbs/control.js'), (m) => m.controlVerb('stop', 'stop')), summary: 'fleet switch: wind down; agents that ignore it are ended after the grace period' },
  shutdown: { run: lazy(() => import('./verbs/shutdown.js'), (m) => m.shutdownVerb), summary: 'end the plane process (not the fleet switch)' },
  token: { run: lazy(() => import('./verbs/token.js'), (m) => m.tokenVerb), summary: 'service tokens for remote agents on the --listen endpoint: token create --callsign X --role R [--ttl D] | list | revoke (operator only)' },
  call: { run: lazy(() => import('./verbs/call.js'), (m) => m.callVerb), summary: "call any method of the table: fleet call METHOD --json '{…}'" },
  mcp: { run: lazy(() => import('./verbs/mcp.js'), (m) => m.mcpVerb), summary: 'the MCP bridge over stdio: the agent-facing methods as MCP tools (configured by fleet init)' },
  hook: { run: lazy(() => import('./verbs/hook.js'), (m) => m.hookVerb), summary: 'the hooks of Claude Code, Codex and git (claude-pre-tool-use, codex-session-start, git-pre-commit…; the installed ones run bin/fleet-hook)' },
  'install-hooks': { run: lazy(() => import('./verbs/install-hooks.js'), (m) => m.installHooksVerb), summary: 'install the git pre-commit and Claude Code PreToolUse hooks in this repository' },
  'uninstall-hooks': { run: lazy(() => import('./verbs/install-hooks.js'), (m) => m.uninstallHooksVerb), summary: 'remove exactly what install-hooks installed' },
  demo: { run: lazy(() => import('./verbs/demo.js'), (m) => m.demoVerb), help: DEMO_HELP, summary: 'a simulated fleet on a sample repository, to watch (fleet status --watch) and steer (pause, drain, resume)' },
  init: { run: lazy(() => import('./verbs/init.js'), (m) => m.initVerb), summary: 'set up this repository for Claude Code and Codex (MCP entries, AGENTS.md/CLAUDE.md block); --remove undoes it' },
};

function usage(): string {
  const width = Math.max(...Object.keys(verbs).map((v) => v.length));
  return [
    'usage: fleet VERB [options]   (every verb takes --home DIR and --json)',
    '',
    ...Object.entries(verbs).map(([name, verb]) => `  ${name.padEnd(width)}  ${verb.summary}`),
    '',
    'exit codes: 0 ok, 1 internal error, 2 bad input, 3 refused (conflict or fleet switch)',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [verbName, ...rest] = argv;
  if (verbName === undefined || verbName === '--help' || verbName === '-h' || verbName === 'help') {
    process.stdout.write(`${usage()}\n`);
    return verbName === undefined ? EXIT.badInput : EXIT.ok;
  }
  const verb = verbs[verbName];
  if (!verb) {
    process.stderr.write(`fleet: unknown verb "${verbName}"\n\n${usage()}\n`);
    return EXIT.badInput;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`fleet ${verbName}: ${verb.summary}\n${verb.help ? `\n${verb.help}\n` : ''}`);
    return EXIT.ok;
  }
  try {
    return await verb.run(rest);
  } catch (error) {
    process.stderr.write(`fleet ${verbName}: ${error instanceof Error ? error.message : String(error)}\n`);
    return exitCodeFor(error);
  }
}

/**
 * Exits once stdout and stderr have drained: to a pipe they write asynchronously, and process.exit
 * would cut what is still queued (`fleet status --json | jq` broke at 64 KB). A write callback runs
 * after every earlier write on its stream has been handed to the OS, or when the stream failed (a
 * reader that went away: nothing more to deliver).
 */
async function exitAfterDrain(code: number): Promise<never> {
  const drained = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => (stream.writableEnded || stream.destroyed ? resolve() : stream.write('', () => resolve())));
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}

// A reader that closes early (`fleet status --json | head`) is not an error of ours.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

main(process.argv.slice(2)).then(
  (code) => exitAfterDrain(code),
  (error: unknown) => {
    process.stderr.write(`fleet: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return exitAfterDrain(EXIT.internal);
  },
);
