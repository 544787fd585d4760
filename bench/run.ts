// `npm run bench [-- --quick] [-- --only latency,throughput,cold-start,footprint,editor,editor-churn,editor-queue,non-reading,limits,hook,hook-events,client-hooks,mcp-tools,jetstream,integration-forecast,integration] [-- --profile]`
// Runs every section in one process on this machine, prints the table and writes the figures to
// bench-results/ (gitignored) as bench-<time>.json and latest.json.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ForeignLoad, waitForQuiet } from './lib/machine.js';
import { markdownTable, Report } from './lib/report.js';
import { clientHooks } from './sections/client-hooks.js';
import { coldStart } from './sections/cold-start.js';
import { editor, editorChurn, editorQueue } from './sections/editor.js';
import { footprint } from './sections/footprint.js';
import { hook } from './sections/hook.js';
import { hookEvents } from './sections/hook-events.js';
import { integrationForecast } from './sections/integration-forecast.js';
import { integration } from './sections/integration.js';
import { jetStreamSection } from './sections/jetstream.js';
import { latencyAndScale } from './sections/latency.js';
import { limits } from './sections/limits.js';
import { mcpTools } from './sections/mcp-tools.js';
import { nonReading } from './sections/non-reading.js';
import { throughput } from './sections/throughput.js';

const SECTIONS = {
  latency: latencyAndScale,
  throughput,
  'cold-start': coldStart,
  footprint,
  editor,
  'editor-churn': editorChurn,
  'editor-queue': editorQueue,
  'non-reading': nonReading,
  limits,
  hook,
  'hook-events': hookEvents,
  'client-hooks': clientHooks,
  'mcp-tools': mcpTools,
  jetstream: jetStreamSection,
  'integration-forecast': integrationForecast,
  integration,
} as const;
type SectionName = keyof typeof SECTIONS;

const USAGE = `usage: npm run bench -- [--quick] [--only SECTION,…] [--profile] [--out DIR] [--quiet-wait SECONDS]
sections: ${Object.keys(SECTIONS).join(', ')}`;

function parseBenchArgs() {
  try {
    return parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        only: { type: 'string' },
        profile: { type: 'boolean', default: false },
        out: { type: 'string', default: 'bench-results' },
        'quiet-wait': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}
const values = parseBenchArgs();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const only = values.only?.split(',').map((s) => s.trim()) ?? Object.keys(SECTIONS);
const unknown = only.filter((name) => !(name in SECTIONS));
if (unknown.length > 0) {
  console.error(`unknown section(s) ${unknown.join(', ')}: the sections are ${Object.keys(SECTIONS).join(', ')}`);
  process.exit(2);
}

const options = { quick: values.quick!, profile: values.profile!, outDir: values.out! };

// Baseline (a) needs better-sqlite3's native addon; npm 11 may have skipped building it. Fail now,
// with the fix, rather than after minutes of measuring.
if (only.includes('throughput')) {
  try {
    const { default: Database } = await import('better-sqlite3');
    new Database(':memory:').close();
  } catch (error) {
    console.error(`better-sqlite3 does not load (${(error as Error).message.split('\n')[0]}).`);
    console.error('Build its native addon with `npm rebuild better-sqlite3` (needs python3, make, g++ and the Node headers), or run without the throughput section: --only latency,cold-start,footprint');
    process.exit(1);
  }
}
const report = new Report();
/** The code measured: commit, and whether the plane's sources differ from it. */
function codeVersion(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'server', 'contracts'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} + uncommitted changes in server/ or contracts/` : commit;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

const machine = {
  code: codeVersion(),
  cores: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryBytes: totalmem(),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  loadAverageAtStart: loadavg(),
};
console.log(`fleet benchmarks${options.quick ? ' (quick)' : ''} of ${machine.code}: ${machine.cores} cores (${machine.cpuModel}), node ${machine.node}, ${machine.platform}`);
const started = Date.now();
const timings: Record<string, number> = {};
// A benchmark on a machine that is busy with something else measures that something else. Each
// section waits (bounded) for the machine to go quiet, and the run records how busy it was.
const QUIET_THRESHOLD = 0.15;
const quietWaitMs = Number(values['quiet-wait'] ?? (options.quick ? 2 : 60)) * 1000;
const busyBefore: Record<string, number> = {};
const foreignDuring: Record<string, number> = {};
for (const name of only as SectionName[]) {
  const busy = await waitForQuiet(QUIET_THRESHOLD, quietWaitMs);
  busyBefore[name] = busy;
  if (busy > QUIET_THRESHOLD) {
    report.add({ section: name, figure: 'WARNING: machine busy with other work before this section', value: `${(busy * 100).toFixed(0)}% of all cores`, reference: 'figures below are disturbed' });
  }
  const sectionStart = Date.now();
  process.stdout.write(`  ${name} (machine ${(busy * 100).toFixed(0)}% busy before)…`);
  const foreign = new ForeignLoad();
  await SECTIONS[name](options, report);
  timings[name] = Date.now() - sectionStart;
  foreignDuring[name] = foreign.share();
  if (foreignDuring[name]! > QUIET_THRESHOLD) {
    report.add({ section: name, figure: 'WARNING: other processes ran during this section', value: `${(foreignDuring[name]! * 100).toFixed(0)}% of all cores`, reference: 'figures above are disturbed' });
  }
  process.stdout.write(` ${(timings[name] / 1000).toFixed(1)} s, other processes used ${(foreignDuring[name]! * 100).toFixed(0)}% of the machine meanwhile\n`);
}
const elapsedMs = Date.now() - started;

console.log('');
console.log(report.table());
const missed = report.rows.filter((row) => row.met === false);
console.log('');
console.log(`${report.rows.filter((row) => row.met !== undefined).length - missed.length} targets met, ${missed.length} missed; ${(elapsedMs / 1000).toFixed(1)} s`);

mkdirSync(options.outDir, { recursive: true });
const stamp = new Date(started).toISOString().replace(/[:.]/g, '-');
const json = JSON.stringify({ startedAt: new Date(started).toISOString(), quick: options.quick, sections: only, elapsedMs, sectionMs: timings, machineBusyBeforeSection: busyBefore, foreignCpuShareDuringSection: foreignDuring, machine, rows: report.rows, figures: report.data }, null, 2);
const file = join(options.outDir, `bench-${stamp}.json`);
writeFileSync(file, `${json}\n`);
writeFileSync(join(options.outDir, 'latest.json'), `${json}\n`);
writeFileSync(
  join(options.outDir, 'latest.md'),
  `Run of ${new Date(started).toISOString()}${options.quick ? ' (--quick)' : ''}, code ${machine.code}: ${machine.cores} cores (${machine.cpuModel}), ${(machine.memoryBytes / 2 ** 30).toFixed(0)} GiB, node ${machine.node}, ${machine.platform}; ${(elapsedMs / 1000).toFixed(0)} s.\n\n${markdownTable(report.rows)}\n`,
);
console.log(`figures written to ${file} (and latest.json)`);
