import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { connectToPlane, readDiscovery } from '../client/connect.js';
import type { PlaneClient } from '../client/plane-client.js';
import { defaultHome } from '../plane/config.js';
import { CommitQueue, createSampleRepository, HERE_FOLDER } from './sample-repo.js';
import { SimAgent, type AgentProfile, type DemoStats, type DemoWorld } from './sim-agent.js';
import { WAVE } from './work-plan.js';
import { seededRandom } from '../core/seeded-random.js';

/** The demo fleet: three builders of different speeds, a verifier and an RTE. */
export const PROFILES: AgentProfile[] = [
  { callsign: 'ATLAS', role: 'builder', stepMs: 1200, speed: 'fast' },
  { callsign: 'BOLT', role: 'builder', stepMs: 2200, speed: 'steady' },
  { callsign: 'COMET', role: 'builder', stepMs: 3500, speed: 'slow' },
  { callsign: 'DELTA', role: 'verifier', stepMs: 1500, speed: 'thorough' },
  { callsign: 'ECHO', role: 'rte', stepMs: 1000, speed: 'watchful' },
];

export interface DemoOptions {
  home: string;
  /** Seconds to run; undefined runs until Ctrl-C. */
  durationSeconds?: number;
  /** Runs every agent faster (2 = twice as fast). */
  pace: number;
  seed: number;
  keepRepository: boolean;
  /** fleet demo --here: the sample repository goes inside this repository (the open workspace). */
  here?: string;
  out(line: string): void;
  err(line: string): void;
}

export interface DemoSummary {
  repo: string;
  stats: DemoStats;
  /** The demo's tasks by status when it ended (before the unfinished ones were rolled back). */
  statuses: Record<string, number>;
  stoppedBecause: 'duration' | 'interrupted' | 'plane gone';
}

/**
 * `fleet demo`: starts (or uses) the plane of FLEET_HOME, creates a sample repository, seeds the
 * queue and runs the simulated fleet until the duration ends or Ctrl-C. On the way out the agents
 * leave and the demo's work leaves the queue (unfinished items rolled back first), so no real agent
 * ever pulls it.
 */
export async function runDemo(options: DemoOptions): Promise<DemoSummary> {
  const planeWasRunning = readDiscovery(options.home) !== undefined;
  const repo = await createSampleRepository(options.here);
  const operator = await connectToPlane({ home: options.home, client: 'fleet-demo', credential: 'operator' });
  const itemIds = new Set<string>();
  const stats: DemoStats = { pulled: 0, completed: 0, verified: 0, rework: 0, accepted: 0, handoffs: 0, conflicts: 0, builds: 0, errors: 0 };
  const abort = new AbortController();
  let stoppedBecause: DemoSummary['stoppedBecause'] = 'duration';
  const stop = (why: DemoSummary['stoppedBecause']) => {
    if (abort.signal.aborted) return;
    stoppedBecause = why;
    abort.abort();
  };
  let wave = 0;
  const random = seededRandom(options.seed);
  const started = Date.now();

  const world: DemoWorld = {
    home: options.home,
    repo,
    commits: new CommitQueue(repo),
    pace: options.pace,
    stats,
    signal: abort.signal,
    random,
    log: (callsign, message) => options.out(`${clock(started)}  ${callsign.padEnd(6)} ${message}`),
    error: (callsign, error) => {
      stats.errors++;
      options.err(`fleet demo: ${callsign}: ${error instanceof Error ? error.message : String(error)}`);
    },
    seedWave: async (client, by) => {
      wave++;
      const ids = await seedWave(client, repo, wave);
      for (const id of ids) itemIds.add(id);
      if (by !== 'operator') options.out(`${clock(started)}  ${by.padEnd(6)} seeded wave ${wave}`);
      return ids.length - 1;
    },
    planeGone: () => stop('plane gone'),
  };

  const agents = PROFILES.map((profile) => new SimAgent(profile, world));
  try {
    await operator.call('fleet_build_configure', { root: repo, command: 'echo "tiny-lang: $(git ls-files | wc -l) files build"', timeoutSeconds: 60 });
    await world.seedWave(operator, 'operator');
    const status = await operator.call('fleet_status', {});
    banner(options, repo, planeWasRunning, status.plane.port, status.controlDetail.state);
    const others = status.agents.filter((agent) => !PROFILES.some((p) => agent.callsign === p.callsign || agent.callsign.startsWith(`${p.callsign}-`)));
    if (others.length > 0) {
      options.out(`Note: ${others.map((a) => a.callsign).join(', ')} ${others.length === 1 ? 'is' : 'are'} on this plane too and share its work queue; run the demo with --home DIR on a separate FLEET_HOME to keep it apart.\n`);
    }
    await Promise.all(agents.map((agent) => agent.start()));
    const loops = agents.map((agent) => agent.run());
    const onSignal = () => stop('interrupted');
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const timer = options.durationSeconds !== undefined ? setTimeout(() => stop('duration'), options.durationSeconds * 1000) : undefined;
    await new Promise<void>((resolve) => abort.signal.addEventListener('abort', () => resolve(), { once: true }));
    if (timer) clearTimeout(timer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await Promise.all(loops);
  } finally {
    stop(stoppedBecause);
    await Promise.all(agents.map((agent) => agent.leave()));
  }
  // Assigned from callbacks: read it as the wider type.
  const why = stoppedBecause as DemoSummary['stoppedBecause'];
  const statuses = why === 'plane gone' ? {} : await windUp(operator, itemIds, options.err);
  operator.close();
  if (!options.keepRepository) removeRepository(repo, options.here);
  const summary: DemoSummary = { repo, stats, statuses, stoppedBecause: why };
  options.out(describeSummary(summary, options));
  return summary;
}

function removeRepository(repo: string, here: string | undefined): void {
  rmSync(repo, { recursive: true, force: true });
  if (here === undefined) return;
  const folder = join(here, HERE_FOLDER);
  if (existsSync(folder) && readdirSync(folder).length === 0) rmSync(folder, { recursive: true, force: true });
}

/** Adds one wave: an epic and its tasks, dependencies resolved to the new ids. Returns every id. */
async function seedWave(client: PlaneClient, repo: string, wave: number): Promise<string[]> {
  const epic = await client.call('fleet_work_add', { title: `tiny-lang parser v2, wave ${wave}`, kind: 'epic', root: repo });
  const ids = new Map<string, string>();
  for (const task of WAVE) {
    const added = await client.call('fleet_work_add', {
      title: wave === 1 ? task.title : `${task.title} (wave ${wave})`,
      kind: 'task',
      parent: epic.item.id,
      paths: task.paths,
      criteria: task.criteria,
      dependsOn: (task.after ?? []).map((key) => ids.get(key)!),
      role: 'builder',
      root: repo,
    });
    ids.set(task.key, added.item.id);
  }
  return [epic.item.id, ...ids.values()];
}

/**
 * The demo's unfinished items are rolled back (done stays done), then all of them leave the shared
 * queue: a real agent never pulls them and `fleet work list` shows only real work. Returns the
 * count per status when the demo ended.
 */
async function windUp(operator: PlaneClient, itemIds: Set<string>, err: (line: string) => void): Promise<Record<string, number>> {
  const { items } = await operator.call('fleet_work_list', {});
  const ours = items.filter((item) => itemIds.has(item.id));
  for (const item of ours) {
    if (item.status === 'done' || item.status === 'rolled_back') continue;
    await operator.call('fleet_work_update', { id: item.id, action: 'decide', decision: { disposition: 'rollback', reasonCode: 'demo-ended', refs: [], note: 'the demo ended before the item was done' } }).catch(() => undefined);
  }
  const ids = ours.map((item) => item.id);
  for (let start = 0; start < ids.length; start += REMOVE_BATCH) {
    await operator.call('fleet_work_remove', { ids: ids.slice(start, start + REMOVE_BATCH) }).catch((error: Error) => err(`fleet demo: its work items stay in the queue: ${error.message}`));
  }
  const statuses: Record<string, number> = {};
  for (const item of ours.filter((i) => i.kind === 'task')) statuses[item.status] = (statuses[item.status] ?? 0) + 1;
  return statuses;
}

/** Items per fleet_work_remove call (its list limit). */
const REMOVE_BATCH = 200;

function banner(options: DemoOptions, repo: string, planeWasRunning: boolean, port: number, control: string): void {
  const homeFlag = options.home === defaultHome({}) ? '' : ` --home ${options.home}`;
  const lines = [
    `Fleet demo: ${PROFILES.length} simulated agents (${PROFILES.map((p) => `${p.callsign} ${p.role}, ${p.speed}`).join('; ')})`,
    `  plane       FLEET_HOME=${options.home}, port ${port} (${planeWasRunning ? 'already running' : 'started by the demo; it keeps running after it: fleet shutdown ends it'})`,
    `  repository  ${repo} (a sample project${options.here !== undefined ? ', inside your workspace: the Explorer shows it and its badges' : ''}; ${options.keepRepository ? 'kept' : 'removed'} when the demo ends)`,
    `  seed        ${options.seed}${options.durationSeconds !== undefined ? `, for ${options.durationSeconds} s` : ''}`,
    '',
    'In another terminal, watch and steer it:',
    `  fleet status --watch${homeFlag}      roster, claims, tasks, live`,
    `  fleet work list${homeFlag}           ready → in_progress → review → verified → done`,
    `  fleet pause${homeFlag}               agents start nothing new and go idle`,
    `  fleet drain${homeFlag}               agents finish what they hold, pull nothing new`,
    `  fleet resume${homeFlag}              back to work`,
    `  fleet digest${homeFlag}              what happened, in one page`,
    'In VS Code, the Fleet sidebar shows the same fleet (with fleet.home pointing at this FLEET_HOME).',
    'Ctrl-C ends the demo: the agents leave and its work items leave the queue (unfinished ones rolled back first).',
    '',
  ];
  if (control !== 'run') lines.push(`The fleet is ${control}: the agents wait until \`fleet resume${homeFlag}\`.`, '');
  options.out(lines.join('\n'));
}

function describeSummary(summary: DemoSummary, options: DemoOptions): string {
  const { stats } = summary;
  const unfinished = Object.entries(summary.statuses)
    .filter(([status]) => status !== 'done' && status !== 'rolled_back')
    .reduce((n, [, count]) => n + count, 0);
  const statuses = Object.entries(summary.statuses)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  return [
    '',
    `Demo ended (${summary.stoppedBecause === 'duration' ? `after ${options.durationSeconds} s` : summary.stoppedBecause}).`,
    `  work: ${stats.pulled} pulled, ${stats.completed} completed by builders, ${stats.verified} verified (${stats.rework} sent back for rework), ${stats.accepted} accepted as done`,
    `  coordination: ${stats.handoffs} handoffs, ${stats.conflicts} claim conflicts met and worked around, ${stats.builds} builds requested`,
    `  tasks when it ended: ${statuses || 'none'}${unfinished > 0 ? ` (the ${unfinished} unfinished rolled back)` : ''}${stats.errors > 0 ? `\n  errors: ${stats.errors} (see above)` : ''}`,
  ].join('\n');
}

const clock = (started: number) => {
  const seconds = Math.floor((Date.now() - started) / 1000);
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
};

