import { parseVerbArgs, positiveNumber } from '../args.js';
import { UsageError } from '../cli-error.js';
import { git } from '../../demo/sample-repo.js';

const USAGE = 'fleet demo [--here] [--duration S] [--pace N] [--seed N] [--keep] [--home DIR] [--json]';

/** What `fleet demo --help` prints: the usage line and what each flag does. */
export const DEMO_HELP = [
  USAGE,
  '',
  '  --here        put the sample repository inside the git repository of this folder (.fleet-demo/,',
  '                kept out of its git status), so the open VS Code workspace shows it and its badges',
  '  --duration S  end the demo after S seconds (default: run until Ctrl-C)',
  '  --pace N      speed the simulated agents up (2 = twice as fast; default 1)',
  '  --seed N      replay the same fleet (a non-negative integer; printed when the demo starts)',
  '  --keep        keep the sample repository when the demo ends (default: removed)',
  '  --home DIR    the FLEET_HOME whose plane the demo uses (default: $FLEET_HOME or ~/.fleet)',
  '  --json        print the summary as JSON when the demo ends',
].join('\n');

/** `fleet demo`: a simulated fleet on a sample repository, to watch in `fleet status --watch` and the sidebar. */
export async function demoVerb(argv: string[]): Promise<number> {
  const { values, home } = parseVerbArgs(argv, { duration: { type: 'string' }, pace: { type: 'string' }, seed: { type: 'string' }, keep: { type: 'boolean' }, here: { type: 'boolean' } }, USAGE);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new UsageError(`--seed ${values.seed}: expected a non-negative integer`);
  const here = values.here ? await repositoryOf(process.cwd()) : undefined;
  const { runDemo } = await import('../../demo/demo.js');
  const durationSeconds = positiveNumber(values.duration, '--duration');
  const summary = await runDemo({
    home,
    ...(durationSeconds !== undefined && { durationSeconds }),
    pace: positiveNumber(values.pace, '--pace') ?? 1,
    seed,
    keepRepository: values.keep ?? false,
    ...(here !== undefined && { here }),
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
  if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  return summary.stats.errors > 0 || summary.stoppedBecause === 'plane gone' ? 1 : 0;
}

/** The root of the git repository `cwd` is in (the open workspace), or a usage error. */
async function repositoryOf(cwd: string): Promise<string> {
  try {
    return (await git(cwd, 'rev-parse', '--show-toplevel')).stdout.trim();
  } catch {
    throw new UsageError(`--here puts the demo inside the git repository of the current folder, and ${cwd} is in none: run it in your workspace's folder (a VS Code terminal starts there)`);
  }
}
