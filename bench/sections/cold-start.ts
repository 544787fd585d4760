// Cold start with 100,000 events in the log, produced by the real plane under a realistic mix
// (joins, claims of several files at once, releases, heartbeats), then ended with SIGKILL so the
// log is left as a crash would leave it. Timed as `fleet serve` from spawn to "listening".
import { rmSync } from 'node:fs';
import { EmbeddedStore } from '../../server/store/embedded-store.js';
import { snapshotSchema } from '../../server/plane/persistence/snapshot-format.js';
import { fleetEventSchema } from '../../contracts/index.js';
import { startPlaneProcess, tempHome } from '../../test/support/plane-process.js';
import { copyHome, logShape, timeColdStart, type ColdStart } from '../lib/cold.js';
import { track } from '../lib/children.js';
import { settleDisk } from '../lib/disk.js';
import { RawClient } from '../lib/raw-client.js';
import { count, mb, ms, type Report } from '../lib/report.js';
import { seededRandom, summarize } from '../lib/stats.js';
import { AREAS, sharedTreeRepo, SRC_FILES, srcFile } from '../lib/tree.js';

export const TARGET_EVENTS = 100_000;
const AGENTS = 32;
const PATTERNS_PER_CLAIM = 8;

interface Options {
  quick: boolean;
}

/** Drives a real plane until its log holds `target` events; returns the home, killed. */
async function generateHome(root: string, target: number): Promise<string> {
  const plane = await startPlaneProcess({ home: tempHome('fleet-bench-history-') });
  track(plane.child);
  const agents = await Promise.all(Array.from({ length: AGENTS }, (_, i) => RawClient.agent(plane, plane.token, `hist-${i}`)));
  let events = 1 + AGENTS; // plane.started and the joins
  try {
    await Promise.all(
      agents.map(async (agent, index) => {
        const random = seededRandom(500 + index);
        for (let cycle = 0; events < target; cycle++) {
          const patterns = Array.from({ length: PATTERNS_PER_CLAIM }, () => srcFile(index, AREAS[Math.floor(random() * AREAS.length)]!, Math.floor(random() * SRC_FILES)));
          const result = await agent.call<{ granted: boolean; claims: { id: string }[] }>('fleet_claim_path', { patterns, root, reason: `cycle ${cycle}` });
          events += result.claims.length;
          if (events >= target) break; // the last claims stay live, as a crash would leave them
          await agent.call('fleet_release_path', { claimIds: result.claims.map((c) => c.id) });
          events += result.claims.length;
          if (cycle % 10 === 9) {
            await agent.call('fleet_agent_heartbeat', { status: 'active', note: `cycle ${cycle}` });
            events++;
          }
        }
      }),
    );
  } finally {
    await plane.kill();
  }
  return plane.home;
}

async function trials(home: string, n: number, withoutSnapshot: boolean): Promise<ColdStart[]> {
  const results: ColdStart[] = [];
  for (let i = 0; i < n; i++) {
    const copy = copyHome(home, { withoutSnapshot });
    settleDisk();
    try {
      results.push(await timeColdStart(copy));
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }
  return results;
}

export async function coldStart(options: Options, report: Report): Promise<void> {
  const n = options.quick ? 2 : 7;
  const root = sharedTreeRepo();
  const emptyHome = tempHome('fleet-bench-empty-');
  let home: string | undefined;
  try {
    const generation = Date.now();
    home = await generateHome(root, TARGET_EVENTS);
    const generationMs = Date.now() - generation;
    const shape = logShape(home);
    settleDisk();
    const empty = await trials(emptyHome, options.quick ? 1 : n, false);
    const asLeft = await trials(home, n, false);
    const full = await trials(home, n, true);

    // The store alone (no process start, no module loading), replaying the whole log.
    const storeCopy = copyHome(home, { withoutSnapshot: true });
    const storeStart = process.hrtime.bigint();
    const store = new EmbeddedStore({ dir: `${storeCopy}/state`, snapshotSchema, eventSchema: fleetEventSchema });
    const opened = await store.open();
    const storeOpenMs = Number(process.hrtime.bigint() - storeStart) / 1e6;
    await store.close();
    rmSync(storeCopy, { recursive: true, force: true });

    const figures = {
      generationMs,
      shape,
      emptyHome: summarize(empty.map((r) => r.ms)),
      asLeft: summarize(asLeft.map((r) => r.ms)),
      fullReplay: summarize(full.map((r) => r.ms)),
      announcedSeq: asLeft[0]?.seq,
      storeOpenFullReplayMs: storeOpenMs,
      storeOpenTailEvents: opened.tail.length,
    };
    report.set('coldStart', figures);

    const s = 'cold start';
    const tail = shape.events - shape.snapshotSeq;
    report.add({
      section: s,
      figure: 'log produced by the real plane, then SIGKILL',
      value: `${count(shape.events)} events`,
      reference: `${shape.segments} segments, ${mb(shape.logBytes)}; snapshot at seq ${count(shape.snapshotSeq)} (${mb(shape.snapshotBytes)}), tail ${count(tail)}`,
    });
    report.add({ section: s, figure: 'empty home (process start + module loading)', value: `${ms(figures.emptyHome.p50)}`, reference: `max ${ms(figures.emptyHome.max)} over ${empty.length}` });
    report.target(
      { section: s, figure: `${count(shape.events)} events, as the plane left them (snapshot + ${count(tail)}-event tail)`, value: ms(figures.asLeft.p50), reference: `max ${ms(figures.asLeft.max)} over ${n}` },
      figures.asLeft.p50,
      1000,
      '≤ 1 s',
    );
    report.target(
      { section: s, figure: `${count(shape.events)} events, snapshot removed (full replay)`, value: ms(figures.fullReplay.p50), reference: `max ${ms(figures.fullReplay.max)} over ${n}; store.open() alone ${ms(storeOpenMs)}` },
      figures.fullReplay.p50,
      1000,
      '≤ 1 s',
    );
  } finally {
    if (home) rmSync(home, { recursive: true, force: true });
    rmSync(emptyHome, { recursive: true, force: true });
  }
}
