// DESIGN §7/§12 limits: what a client that floods requests and never reads its replies costs the
// plane. The scenario is the adversarial test's (test/support/non-reading-flood.ts): a child
// process joins, stops reading and floods a seeded mix of claims, releases, checks and status
// calls; another client keeps claiming meanwhile and times each call; the plane's VmRSS is read
// after each of those calls.
import { rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { startPlaneProcess, tempHome } from '../../test/support/plane-process.js';
import { floodWithoutReading } from '../../test/support/non-reading-flood.js';
import { track } from '../lib/children.js';
import { count, mb, ms, us, type Report } from '../lib/report.js';
import { summarize } from '../lib/stats.js';

const SEED = 14;

interface Options {
  quick: boolean;
}

export async function nonReading(options: Options, report: Report): Promise<void> {
  const root = tempHome('fleet-bench-flood-repo-');
  execFileSync('git', ['init', '-q', '-b', 'main', root]);
  const plane = await startPlaneProcess({ home: tempHome('fleet-bench-flood-') });
  track(plane.child);
  try {
    const outcome = await floodWithoutReading(plane, root, { seed: SEED, maxRequests: options.quick ? 100_000 : 300_000, deadlineMs: 60_000 });
    const growth = outcome.rssPeakBytes - outcome.rssBeforeBytes;
    const calls = summarize(outcome.latenciesMs.map((millis) => millis * 1000));
    // What the plane's own loop ran during one call, apart from the wall clock's share of the machine's other load.
    const loopBusy = summarize(outcome.loopBusyMs.map((millis) => millis * 1000));
    const slowest = outcome.latenciesMs.indexOf(Math.max(...outcome.latenciesMs));
    report.set('nonReading', { ...outcome, latenciesMs: undefined, loopBusyMs: undefined, loopPreemptedMs: undefined, calls, loopBusy });
    const s = 'limits';
    report.target(
      {
        section: s,
        figure: 'RSS under a client that never reads',
        value: `+${mb(growth)}`,
        reference: `${mb(outcome.rssBeforeBytes)} → peak ${mb(outcome.rssPeakBytes)}; ${outcome.dropped ? `dropped after ${count(outcome.sent)} requests, ${ms(outcome.elapsedMs)}` : 'NOT dropped'}`,
      },
      outcome.dropped ? growth : Infinity,
      100 * 1024 * 1024,
      '< 100 MB growth, client dropped',
    );
    report.target(
      { section: s, figure: "another client's claim during that flood, p50 / p99 / max", value: `${us(calls.p50)} / ${us(calls.p99)} / ${us(calls.max)}`, reference: `${count(calls.n)} claims; the plane's loop ran ≤ ${us(loopBusy.max)} during any one (p99 ${us(loopBusy.p99)}); the slowest: ${us(outcome.loopBusyMs[slowest]! * 1000)} run, ${us(outcome.loopPreemptedMs[slowest]! * 1000)} waiting for a CPU` },
      calls.max / 1000,
      50,
      'max ≤ 50 ms',
    );
  } finally {
    await plane.kill();
    rmSync(plane.home, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  }
}
