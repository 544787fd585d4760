// The conflict forecast (DESIGN §14, issue 23): its lead time (a conflicting save → the forecast
// event reaching the other agent's connection through the plane's event feed; on NATS, a conflicting
// commit or save by an agent of one plane → the event on the plane holding the scope's integrator
// lease, which forecasts between branches, DESIGN §16), the cost of one
// check on a generated repository of 10,000 files (100,000 without --quick: the write-set must not
// stall there), and the plane's latency for other calls while forecasts run, against the same calls
// in the same run without them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FleetEvent } from '../../contracts/index.js';
import { changedPaths } from '../../server/integration/git/changed-paths.js';
import { forecastMerge } from '../../server/integration/git/merge-tree.js';
import { mergeBase, resolveCommit } from '../../server/integration/git/refs.js';
import { snapshotWorktree } from '../../server/integration/git/worktree-snapshot.js';
import { git } from '../../test/support/git-repo.js';
import { startNatsCluster } from '../../test/support/nats-cluster.js';
import { startNatsPlane, stopPlanes } from '../../test/support/nats-plane.js';
import { removeHome, startPlaneProcess, tempHome, type PlaneProcess } from '../../test/support/plane-process.js';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { count, ms, times, us, type Report } from '../lib/report.js';
import { summarize } from '../lib/stats.js';

const SECTION = 'integration-forecast';
const EDITED_PER_BRANCH = 50;

/** A repository of `files` files in folders of 100, committed on main, with two worktrees on branches of their own. */
function generatedRepository(files: number): { repo: string; atlas: string; bolt: string; paths: string[] } {
  const repo = tempHome('fleet-bench-forecast-repo-');
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  const paths = Array.from({ length: files }, (_, i) => `src/d${Math.floor(i / 100)}/f${i}.ts`);
  for (const path of paths) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), fileText(path, 'main'));
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'generated');
  const trees = tempHome('fleet-bench-forecast-trees-');
  const [atlas, bolt] = [join(trees, 'atlas'), join(trees, 'bolt')];
  git(repo, 'worktree', 'add', '-q', '-b', 'atlas', atlas, 'main');
  git(repo, 'worktree', 'add', '-q', '-b', 'bolt', bolt, 'main');
  return { repo, atlas, bolt, paths };
}

const fileText = (path: string, who: string) => `// ${path}\nexport const first = 1;\nexport const edited = '${who}';\nexport const last = 3;\n`;

/** Each branch edits EDITED_PER_BRANCH files, the first `shared` of them the same (a conflict on each). */
function editBranches(atlas: string, bolt: string, paths: string[], shared: number): void {
  for (let i = 0; i < EDITED_PER_BRANCH; i++) {
    writeFileSync(join(atlas, paths[i]!), fileText(paths[i]!, 'atlas'));
    const boltPath = i < shared ? paths[i]! : paths[paths.length - 1 - i]!;
    writeFileSync(join(bolt, boltPath), fileText(boltPath, 'bolt'));
  }
  git(bolt, 'commit', '-q', '-am', 'bolt');
}

/** One write-set computation and one forecast check, as the plane runs them, timed apart. */
async function oneCheck(atlas: string, bolt: string): Promise<{ snapshotMs: number; writeSetMs: number; mergeMs: number; conflicts: number }> {
  let start = performance.now();
  const snapshot = (await snapshotWorktree(atlas))!;
  const snapshotMs = performance.now() - start;
  start = performance.now();
  const target = (await resolveCommit(atlas, 'refs/heads/main'))!;
  const base = (await mergeBase(atlas, target, snapshot.commit))!;
  await changedPaths(atlas, base, snapshot.commit, 5000);
  const writeSetMs = performance.now() - start;
  start = performance.now();
  const merged = await forecastMerge(atlas, snapshot.commit, (await resolveCommit(bolt, 'HEAD'))!, 200);
  return { snapshotMs, writeSetMs, mergeMs: performance.now() - start, conflicts: merged.conflicts.length };
}

async function checkCost(files: number, runs: number, report: Report): Promise<void> {
  const generateStart = performance.now();
  const { repo, atlas, bolt, paths } = generatedRepository(files);
  const generatedMs = performance.now() - generateStart;
  try {
    editBranches(atlas, bolt, paths, 5);
    const samples = [];
    for (let i = 0; i < runs; i++) samples.push(await oneCheck(atlas, bolt));
    const [snapshot, writeSet, merge] = [summarize(samples.map((s) => s.snapshotMs)), summarize(samples.map((s) => s.writeSetMs)), summarize(samples.map((s) => s.mergeMs))];
    report.set(`forecastCheck${files}`, { files, runs, generatedMs, samples });
    const where = `${count(files)}-file repository, ${EDITED_PER_BRANCH} uncommitted edits vs ${EDITED_PER_BRANCH} committed, ${samples[0]!.conflicts} conflicts; p50 (max) of ${runs}`;
    report.add({ section: SECTION, figure: `worktree snapshot (temporary index, untracked included), ${where}`, value: `${ms(snapshot.p50)} (${ms(snapshot.max)})` });
    report.add({ section: SECTION, figure: `write-set paths (merge-base + diff --name-only), ${where}`, value: `${ms(writeSet.p50)} (${ms(writeSet.max)})` });
    report.add({ section: SECTION, figure: `one forecast check (merge-tree --write-tree), ${where}`, value: `${ms(merge.p50)} (${ms(merge.max)})` });
  } finally {
    removeHome(repo);
    removeHome(dirname(atlas));
  }
}

/** Lead time and the plane's latency for others, with a real plane and two agents on the 10,000-file repository. */
async function leadTimeAndLoad(quick: boolean, report: Report): Promise<void> {
  const { repo, atlas, bolt, paths } = generatedRepository(10_000);
  const plane = await startPlaneProcess();
  const clients = [];
  try {
    const [atlasClient, boltClient, other] = [await plane.connect('bench-atlas'), await plane.connect('bench-bolt'), await plane.connect('bench-other')];
    clients.push(atlasClient, boltClient, other);
    await atlasClient.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'bench', worktree: atlas });
    await boltClient.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'bench', worktree: bolt });
    await other.call('fleet_agent_join', { callsign: 'OTHER', runtime: 'bench' });
    const contested = paths[0]!;
    writeFileSync(join(bolt, contested), fileText(contested, 'bolt'));
    git(bolt, 'commit', '-q', '-am', 'bolt');
    // BOLT follows the plane's event feed, as an agent's connection does.
    const seen = await feedOf(boltClient);
    const waitForForecast = (status: 'conflict' | 'cleared', from: number) => forecastSeen(seen, status, from);
    const runs = quick ? 3 : 8;
    const leads = { conflict: [] as number[], cleared: [] as number[] };
    for (let i = 0; i < runs; i++) {
      for (const [status, who] of [['conflict', 'atlas'], ['cleared', 'main']] as const) {
        const from = seen.length;
        const saved = performance.now();
        writeFileSync(join(atlas, contested), fileText(contested, who));
        leads[status].push((await waitForForecast(status, from)) - saved);
      }
    }
    const [found, cleared] = [summarize(leads.conflict), summarize(leads.cleared)];
    report.set('forecastLeadMs', leads);
    report.add({ section: SECTION, figure: `lead time: a conflicting save → the forecast event at the other agent (10,000 files; debounce 750 ms incl.), p50 (max) of ${runs}`, value: `${ms(found.p50)} (${ms(found.max)})` });
    report.add({ section: SECTION, figure: `same, the save taken back → cleared`, value: `${ms(cleared.p50)} (${ms(cleared.max)})` });

    // Others' latency: OTHER checks a path again and again, first alone, then while ATLAS keeps saving (each save a snapshot, a diff and two merges).
    const phaseMs = quick ? 8_000 : 30_000;
    const timeCalls = async (): Promise<number[]> => {
      const samples = [];
      for (const end = performance.now() + phaseMs; performance.now() < end; ) {
        const start = performance.now();
        const checked = await other.call('fleet_check_path', { paths: ['src/d1/f100.ts'], root: repo });
        if (checked.results.length !== 1) throw new Error('fleet_check_path answered no result');
        samples.push((performance.now() - start) * 1000);
      }
      return samples;
    };
    const quiet = summarize(await timeCalls());
    let saving = true;
    let saves = 0;
    const saver = (async () => {
      while (saving) {
        writeFileSync(join(atlas, paths[(saves % 40) + 1]!), fileText(paths[(saves % 40) + 1]!, `save ${saves}`));
        saves++;
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
    })();
    const forecastsBefore = seen.length;
    const busy = summarize(await timeCalls());
    saving = false;
    await saver;
    const writeSetEvents = seen.slice(forecastsBefore).filter((s) => s.event.type === 'integration.write_set').length;
    report.set('forecastLoadMicros', { phaseMs, quiet, busy, saves, writeSetEvents });
    report.add({ section: SECTION, figure: `others' fleet_check_path p50 / p99 over ${phaseMs / 1000} s while ATLAS saves every 400 ms (${saves} saves, ${writeSetEvents} write-set changes recorded; 10,000 files)`, value: `${us(busy.p50)} / ${us(busy.p99)}`, reference: `same run, no forecasts: ${us(quiet.p50)} / ${us(quiet.p99)}`, ratio: `${times(busy.p50 / quiet.p50)} / ${times(busy.p99 / quiet.p99)}` });
  } finally {
    for (const client of clients) client.close();
    await plane.stop();
    removeHome(plane.home);
    removeHome(repo);
    removeHome(dirname(atlas));
  }
}

type Seen = { event: FleetEvent; at: number }[];

/** Every event of the plane's feed on `client`, with the time it arrived. */
async function feedOf(client: PlaneClient): Promise<Seen> {
  const seen: Seen = [];
  client.onNotification((method, params) => {
    if (method === 'fleet_event') seen.push({ event: (params as { event: FleetEvent }).event, at: performance.now() });
  });
  await client.call('fleet_events_subscribe', {});
  return seen;
}

/** When the first `status` forecast between two agents at index `from` or later of the feed arrived. */
async function forecastSeen(seen: Seen, status: 'conflict' | 'cleared', from: number): Promise<number> {
  for (let waited = 0; waited < 60_000; waited += 20) {
    const hit = seen.slice(from).find((s) => s.event.type === 'integration.forecast' && s.event.status === status && s.event.otherAgentId !== undefined);
    if (hit) return hit.at;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no ${status} forecast within 60 s`);
}

/**
 * Lead time on NATS (a real 3-node JetStream cluster, two planes): ATLAS and BOLT on different
 * planes, both with a committed change to one file; the agent of the plane that is not the
 * integrator moves (commits, or saves without committing), and the time runs to the forecast
 * event on the integrator's own feed: its write-set crosses the shared log, the integrator merges.
 */
async function leadTimeOnNats(quick: boolean, report: Report): Promise<void> {
  const cluster = await startNatsCluster();
  const { repo, atlas, bolt, paths } = generatedRepository(10_000);
  const contested = paths[0]!;
  const planes: PlaneProcess[] = [];
  const clients: PlaneClient[] = [];
  try {
    planes.push(await startNatsPlane(cluster, 'bench-forecast'), await startNatsPlane(cluster, 'bench-forecast'));
    const agents = [
      { callsign: 'ATLAS', tree: atlas, plane: planes[0]! },
      { callsign: 'BOLT', tree: bolt, plane: planes[1]! },
    ];
    const feeds = new Map<PlaneProcess, Seen>();
    for (const plane of planes) {
      const watcher = await plane.connectAsOperator('bench-watcher');
      clients.push(watcher);
      feeds.set(plane, await feedOf(watcher));
    }
    for (const agent of agents) {
      const client = await agent.plane.connect(`bench-${agent.callsign}`);
      clients.push(client);
      await client.call('fleet_agent_join', { callsign: agent.callsign, runtime: 'bench', worktree: agent.tree });
      writeFileSync(join(agent.tree, contested), fileText(contested, agent.callsign));
      git(agent.tree, 'commit', '-q', '-am', agent.callsign);
    }
    // The first conflict names the plane that forecast it: the integrator.
    await forecastSeen(feeds.get(planes[0]!)!, 'conflict', 0);
    const first = feeds.get(planes[0]!)!.find((s) => s.event.type === 'integration.forecast')!.event as Extract<FleetEvent, { type: 'integration.forecast' }>;
    const integrator = planes.find((plane) => first.integrator?.endsWith(`:${plane.home}`));
    if (!integrator) throw new Error(`the forecast names no plane of this run as its integrator (${first.integrator})`);
    const mover = agents.find((agent) => agent.plane !== integrator)!;
    const feed = feeds.get(integrator)!;
    const runs = quick ? 3 : 6;
    const leads = { commit: [] as number[], save: [] as number[] };
    for (let i = 0; i < runs; i++) {
      for (const how of ['commit', 'save'] as const) {
        // Back to main's text (cleared), then its own again (a conflict): each timed to the integrator's event.
        for (const [status, who] of [['cleared', 'main'], ['conflict', mover.callsign]] as const) {
          const from = feed.length;
          writeFileSync(join(mover.tree, contested), fileText(contested, who));
          if (how === 'commit') git(mover.tree, 'commit', '-q', '-am', `${who} ${i}`);
          const moved = performance.now();
          const at = await forecastSeen(feed, status, from);
          if (status === 'conflict') leads[how].push(at - moved);
          // A save is taken back by committing it, so each round starts from a clean worktree.
          if (how === 'save') git(mover.tree, 'commit', '-q', '-am', `${who} ${i}`);
        }
      }
    }
    const [committed, saved] = [summarize(leads.commit), summarize(leads.save)];
    report.set('forecastLeadNatsMs', leads);
    report.add({ section: SECTION, figure: `lead time on NATS: a conflicting change written and committed by an agent of one plane, from the commit's return → the forecast event on the integrator's plane (the other; 3-node JetStream, 10,000 files), p50 (max) of ${runs}`, value: `${ms(committed.p50)} (${ms(committed.max)})` });
    report.add({ section: SECTION, figure: `same, a conflicting save (uncommitted) → the event on the integrator's plane`, value: `${ms(saved.p50)} (${ms(saved.max)})` });
  } finally {
    for (const client of clients) client.close();
    await stopPlanes(planes);
    await cluster.stop();
    removeHome(repo);
    removeHome(dirname(atlas));
  }
}

export async function integrationForecast(options: { quick?: boolean }, report: Report): Promise<void> {
  const quick = options.quick === true;
  await checkCost(10_000, quick ? 3 : 10, report);
  if (!quick) await checkCost(100_000, 3, report);
  await leadTimeAndLoad(quick, report);
  await leadTimeOnNats(quick, report);
}
