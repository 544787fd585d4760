import { claimVerb, checkVerb, releaseVerb } from './verbs/territory.js';
import { callVerb } from './verbs/call.js';
import { controlVerb } from './verbs/control.js';
import { eventsVerb } from './verbs/events.js';
import { joinVerb } from './verbs/join.js';
import { serve } from './verbs/serve.js';
import { shutdownVerb } from './verbs/shutdown.js';
import { statusVerb } from './verbs/status.js';
import { EXIT, exitCodeFor } from './cli-error.js';

const verbs: Record<string, { run: (argv: string[]) => Promise<number>; summary: string }> = {
  serve: { run: serve, summary: 'run the coordination plane in the foreground (npm start does this)' },
  status: { run: statusVerb, summary: 'show the fleet switch, the roster and the claims (--watch: live)' },
  join: { run: joinVerb, summary: 'join the roster as an agent: --callsign X --runtime Y' },
  claim: { run: claimVerb, summary: 'claim territory: --as X PATTERN…' },
  check: { run: checkVerb, summary: 'may these paths be written now, and who holds them? PATH…' },
  release: { run: releaseVerb, summary: 'release claims: --as X PATTERN… or --id ID…' },
  events: { run: eventsVerb, summary: 'print the event log (--follow: keep printing)' },
  pause: { run: controlVerb('pause', 'pause'), summary: 'fleet switch: start nothing new' },
  drain: { run: controlVerb('drain', 'drain'), summary: 'fleet switch: finish what is held, pull no new work' },
  resume: { run: controlVerb('run', 'resume'), summary: 'fleet switch: back to run (operator only)' },
  stop: { run: controlVerb('stop', 'stop'), summary: 'fleet switch: wind down; agents that ignore it are ended after the grace period' },
  shutdown: { run: shutdownVerb, summary: 'end the plane process (not the fleet switch)' },
  call: { run: callVerb, summary: "call any method of the table: fleet call METHOD --json '{…}'" },
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
    process.stdout.write(`fleet ${verbName}: ${verb.summary}\n`);
    return EXIT.ok;
  }
  try {
    return await verb.run(rest);
  } catch (error) {
    process.stderr.write(`fleet ${verbName}: ${error instanceof Error ? error.message : String(error)}\n`);
    return exitCodeFor(error);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`fleet: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(EXIT.internal);
  },
);
