import { claimVerb, checkVerb, releaseVerb } from './verbs/territory.js';
import { buildVerb } from './verbs/build.js';
import { callVerb } from './verbs/call.js';
import { digestVerb } from './verbs/digest.js';
import { handoffVerb } from './verbs/handoff.js';
import { historyVerb } from './verbs/history.js';
import { inboxVerb } from './verbs/inbox.js';
import { workVerb } from './verbs/work.js';
import { controlVerb } from './verbs/control.js';
import { eventsVerb } from './verbs/events.js';
import { joinVerb } from './verbs/join.js';
import { serve } from './verbs/serve.js';
import { shutdownVerb } from './verbs/shutdown.js';
import { tokenVerb } from './verbs/token.js';
import { statusVerb } from './verbs/status.js';
import { mcpVerb } from './verbs/mcp.js';
import { hookVerb } from './verbs/hook.js';
import { installHooksVerb, uninstallHooksVerb } from './verbs/install-hooks.js';
import { initVerb } from './verbs/init.js';
import { DEMO_HELP, demoVerb } from './verbs/demo.js';
import { EXIT, exitCodeFor } from './cli-error.js';

const verbs: Record<string, { run: (argv: string[]) => Promise<number>; summary: string; /** Flags and what they do, printed under the summary by --help. */ help?: string }> = {
  serve: { run: serve, summary: 'run the coordination plane in the foreground (npm start does this)' },
  status: { run: statusVerb, summary: 'show the fleet switch, the roster and the claims (--watch: live)' },
  join: { run: joinVerb, summary: 'join the roster as an agent: --callsign X --runtime Y' },
  claim: { run: claimVerb, summary: 'claim territory: --as X PATTERN…' },
  check: { run: checkVerb, summary: 'may these paths be written now, and who holds them? PATH…' },
  release: { run: releaseVerb, summary: 'release claims: --as X PATTERN… or --id ID…' },
  handoff: { run: handoffVerb, summary: 'hand work and claims to another agent, or accept/decline one' },
  inbox: { run: inboxVerb, summary: 'messages and handoffs waiting for an agent; ack them' },
  work: { run: workVerb, summary: 'the work queue: list, show, add, pull, plan, complete, verify, decide, clarify, answer, artifact' },
  build: { run: buildVerb, summary: 'the build gate: configure it (operator), or have the plane run it' },
  digest: { run: digestVerb, summary: 'the heartbeat digest (--publish: record it and write digest.md)' },
  history: { run: historyVerb, summary: 'who held a path, when, and why each hold ended' },
  events: { run: eventsVerb, summary: 'print the event log (--follow: keep printing)' },
  pause: { run: controlVerb('pause', 'pause'), summary: 'fleet switch: start nothing new' },
  drain: { run: controlVerb('drain', 'drain'), summary: 'fleet switch: finish what is held, pull no new work' },
  resume: { run: controlVerb('run', 'resume'), summary: 'fleet switch: back to run (operator only)' },
  stop: { run: controlVerb('stop', 'stop'), summary: 'fleet switch: wind down; agents that ignore it are ended after the grace period' },
  shutdown: { run: shutdownVerb, summary: 'end the plane process (not the fleet switch)' },
  token: { run: tokenVerb, summary: 'service tokens for remote agents on the --listen endpoint: token create --callsign X --role R [--ttl D] | list | revoke (operator only)' },
  call: { run: callVerb, summary: "call any method of the table: fleet call METHOD --json '{…}'" },
  mcp: { run: mcpVerb, summary: 'the MCP bridge over stdio: the agent-facing methods as MCP tools (configured by fleet init)' },
  hook: { run: hookVerb, summary: 'the write gates: hook claude-pre-tool-use | git-pre-commit (called by the installed hooks)' },
  'install-hooks': { run: installHooksVerb, summary: 'install the git pre-commit and Claude Code PreToolUse hooks in this repository' },
  'uninstall-hooks': { run: uninstallHooksVerb, summary: 'remove exactly what install-hooks installed' },
  demo: { run: demoVerb, help: DEMO_HELP, summary: 'a simulated fleet on a sample repository, to watch (fleet status --watch) and steer (pause, drain, resume)' },
  init: { run: initVerb, summary: 'set up this repository for Claude Code and Codex (MCP entries, AGENTS.md/CLAUDE.md block); --remove undoes it' },
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
