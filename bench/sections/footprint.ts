// Memory with 500 connected agents holding 50,000 claims, measured on the real `fleet serve`
// process (VmRSS from /proc), then the size of the snapshot its clean shutdown writes, and how
// fast a plane starts from that snapshot.
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startPlaneProcess, tempHome } from '../../test/support/plane-process.js';
import { copyHome, logShape, timeColdStart } from '../lib/cold.js';
import { track } from '../lib/children.js';
import { settleDisk } from '../lib/disk.js';
import { memoryOf } from '../lib/proc.js';
import { RawClient } from '../lib/raw-client.js';
import { count, mb, ms, us, type Report } from '../lib/report.js';
import { microsSince, summarize } from '../lib/stats.js';
import { AREAS } from '../lib/tree.js';
import { execFileSync } from 'node:child_process';

export const FOOTPRINT_AGENTS = 500;
export const CLAIMS_PER_AGENT = 100;
const PER_REQUEST = 50;

interface Options {
  quick: boolean;
}

/** Agent a's territory: its own service, mostly single files, a few directories and globs. */
function territoryOf(a: number): string[] {
  const base = `services/svc-${String(a).padStart(3, '0')}`;
  const patterns: string[] = [];
  for (let k = 0; patterns.length < CLAIMS_PER_AGENT; k++) {
    const area = AREAS[k % AREAS.length]!;
    if (k % 20 === 7) patterns.push(`${base}/${area}/generated-${k}/`);
    else if (k % 20 === 13) patterns.push(`${base}/${area}/**/*.snap-${k}`);
    else patterns.push(`${base}/${area}/file-${k}.ts`);
  }
  return patterns;
}

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

export async function footprint(options: Options, report: Report): Promise<void> {
  const root = tempHome('fleet-bench-services-');
  execFileSync('git', ['init', '-q', '-b', 'main', root]);
  settleDisk();
  const plane = await startPlaneProcess({ home: tempHome('fleet-bench-footprint-') });
  track(plane.child);
  const idle = memoryOf(plane.child.pid!);
  const agents: RawClient[] = [];
  let copy: string | undefined;
  try {
    const loading = Date.now();
    await inBatches(
      Array.from({ length: FOOTPRINT_AGENTS }, (_, a) => a),
      50,
      async (a) => {
        const agent = await RawClient.agent(plane, plane.token, `svc-${a}`);
        agents[a] = agent;
        const patterns = territoryOf(a);
        for (let i = 0; i < patterns.length; i += PER_REQUEST) {
          const result = await agent.call<{ granted: boolean }>('fleet_claim_path', { patterns: patterns.slice(i, i + PER_REQUEST), root });
          if (!result.granted) throw new Error(`claims of agent ${a} were refused`);
        }
      },
    );
    const loadingMs = Date.now() - loading;
    // Let the debounced ledger rewrite and any follow-up work finish before reading memory.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const loaded = memoryOf(plane.child.pid!);
    // The totals count every agent and claim; the lists themselves come in pages.
    const { totals } = await agents[0]!.call<{ totals: { claims: number; agents: number } }>('fleet_status', { limit: 1 });

    // Latency of the single calls with this much state, one agent at a time.
    const probe = agents[0]!;
    const checks: number[] = [];
    for (let i = 0; i < (options.quick ? 200 : 1000); i++) {
      const start = process.hrtime.bigint();
      await probe.call('fleet_check_path', { paths: [`services/svc-${String(i % FOOTPRINT_AGENTS).padStart(3, '0')}/api/file-${i % 97}.ts`], root });
      checks.push(microsSince(start));
    }
    const ledgerBytes = statSync(join(plane.home, 'ledger.json')).size;

    await Promise.all(agents.map((agent) => agent.close()));
    await plane.stop(); // a clean stop writes the snapshot
    const shape = logShape(plane.home);
    // A plane starting from this snapshot (the full run only: it is not a target).
    let restartMs: number | undefined;
    if (!options.quick) {
      copy = copyHome(plane.home);
      settleDisk();
      restartMs = (await timeColdStart(copy)).ms;
    }

    const figures = {
      agents: totals.agents,
      claims: totals.claims,
      loadingMs,
      idleRss: idle.rss,
      rss: loaded.rss,
      peakRss: loaded.peak,
      ledgerBytes,
      snapshotBytes: shape.snapshotBytes,
      logBytes: shape.logBytes,
      events: shape.events,
      coldStartMs: restartMs,
      check: summarize(checks),
    };
    report.set('footprint', figures);
    const s = 'start and size';
    report.target(
      { section: s, figure: `RSS with ${count(figures.agents)} agents and ${count(figures.claims)} claims`, value: mb(figures.rss), reference: `peak ${mb(figures.peakRss)}; ${mb(idle.rss)} when idle` },
      figures.rss,
      200 * 1024 * 1024,
      '≤ 200 MB',
    );
    report.add({ section: s, figure: 'snapshot on disk after a clean stop', value: mb(figures.snapshotBytes), reference: `log ${mb(figures.logBytes)} (${count(figures.events)} events)` });
    report.add({ section: s, figure: 'ledger.json (rewritten at most every 200 ms)', value: mb(figures.ledgerBytes) });
    if (restartMs !== undefined) report.add({ section: s, figure: 'cold start from that snapshot', value: ms(restartMs) });
    report.add({ section: s, figure: `check p50 / p99 with ${count(figures.claims)} claims`, value: `${us(figures.check.p50)} / ${us(figures.check.p99)}`, reference: `loading them took ${ms(loadingMs)}` });
  } finally {
    await Promise.all(agents.map((agent) => agent?.close()));
    await plane.kill();
    rmSync(plane.home, { recursive: true, force: true });
    if (copy) rmSync(copy, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  }
}
