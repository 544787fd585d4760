import { parseVerbArgs, positiveNumber } from '../args.js';
import { UsageError } from '../cli-error.js';

const USAGE = 'fleet demo [--duration S] [--pace N] [--seed N] [--keep] [--home DIR] [--json]';

/** What `fleet demo --help` prints: the usage line and what each flag does. */
export const DEMO_HELP = [
  USAGE,
  '',
  '  --duration S  end the demo after S seconds (default: run until Ctrl-C)',
  '  --pace N      speed the simulated agents up (2 = twice as fast; default 1)',
  '  --seed N      replay the same fleet (a non-negative integer; printed when the demo starts)',
  '  --keep        keep the sample repository when the demo ends (default: removed)',
  '  --home DIR    the FLEET_HOME whose plane the demo uses (default: $FLEET_HOME or ~/.fleet)',
  '  --json        print the summary as JSON when the demo ends',
].join('\n');

/** `fleet demo`: a simulated fleet on a sample repository, to watch in `fleet status --watch` and the sidebar. */
export async function demoVerb(argv: string[]): Promise<number> {
  const { values, home } = parseVerbArgs(argv, { duration: { type: 'string' }, pace: { type: 'string' }, seed: { type: 'string' }, keep: { type: 'boolean' } }, USAGE);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new UsageError(`--seed ${values.seed}: expected a non-negative integer`);
  const { runDemo } = await import('../../demo/demo.js');
  const durationSeconds = positiveNumber(values.duration, '--duration');
  const summary = await runDemo({
    home,
    ...(durationSeconds !== undefined && { durationSeconds }),
    pace: positiveNumber(values.pace, '--pace') ?? 1,
    seed,
    keepRepository: values.keep ?? false,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
  if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  return summary.stats.errors > 0 || summary.stoppedBecause === 'plane gone' ? 1 : 0;
}
