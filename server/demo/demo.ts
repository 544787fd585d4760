import { FINISHED_STATUSES, type WorkStatus } from '../../contracts/index.js';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { connectToPlane, readDiscovery } from '../client/connect.js';
import type { PlaneClient } from '../client/plane-client.js';
import { homePaths } from '../home/paths.js';
import { defaultHome } from '../plane/config.js';
import { createSampleRepository, HERE_FOLDER } from './sample-repo.js';
import { SimAgent, type AgentProfile, type DemoStats, type DemoWorld } from './sim-agent.js';
import { DemoQueue, MAX_DEMO_ITEMS, OPEN_WAVES } from './demo-queue.js';
import { TrainWatch, type TrainStats } from './train-watch.js';
import type { PlannedTask } from './work-plan.js';
import { seededRandom } from '../core/seeded-random.js';

/** The demo fleet: three builders of different speeds (each in a worktree of its own), a verifier and an RTE. */
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
  train: TrainStats;
  /** The demo's tasks still in the queue when it ended, by status (before the unfinished ones were rolled back). */
  statuses: Record<string, number>;
  stoppedBecause: 'duration' | 'interrupted' | 'plane gone';
}

/**
 * `fleet demo`: starts (or uses) the plane of FLEET_HOME, creates a sample repository, seeds the
 * queue (never more than MAX_DEMO_ITEMS of its items in it) and runs the simulated fleet until the
 * duration ends, Ctrl-C or SIGTERM. On the way out the agents leave, the train gets a bounded wait to
 * land what it holds, and the demo's work leaves the queue (unfinished items, those still on the
 * train among them, rolled back first), so no real agent ever pulls it.
 */
export async function runDemo(options: DemoOptions): Promise<DemoSummary> {
  const planeWasRunning = readDiscovery(options.home) !== undefined;
  const repo = await createSampleRepository(options.here);
  const operator = await connectToPlane({ home: options.home, client: 'fleet-demo', credential: 'operator' });
  const plants = new Map<string, NonNullable<PlannedTask['plant']>>();
  const queue = new DemoQueue(repo, plants);
  const stats: DemoStats = { pulled: 0, completed: 0, verified: 0, rework: 0, accepted: 0, handoffs: 0, builds: 0, errors: 0 };
  const abort = new AbortController();
  let stoppedBecause: DemoSummary['stoppedBecause'] = 'duration';
  const stop = (why: DemoSummary['stoppedBecause']) => {
    if (abort.signal.aborted) return;
    stoppedBecause = why;
    abort.abort();
  };
  const random = seededRandom(options.seed);
  const started = Date.now();

  const sentBack = new Map<string, 'conflict' | 'red'>();
  const log = (callsign: string, message: string) => options.out(`${clock(started)}  ${callsign.padEnd(6)} ${message}`);
  const builders = PROFILES.filter((p) => p.role === 'builder').map((p) => p.callsign);
  const train = new TrainWatch(
    (callsign) => builders.includes(callsign.replace(/-\d+$/, '')),
    (itemId) => queue.holds(itemId),
    (message) => log('TRAIN', message),
    // Sent back: its builder fixes what was planted, on the new target, in the rework.
    (itemId, cause) => {
      plants.delete(itemId);
      sentBack.set(itemId, cause);
    },
  );
  const world: DemoWorld = {
    home: options.home,
    repo,
    plants,
    sentBack,
    branches: new Map(),
    pace: options.pace,
    stats,
    signal: abort.signal,
    random,
    log,
    error: (callsign, error) => {
      stats.errors++;
      options.err(`fleet demo: ${callsign}: ${error instanceof Error ? error.message : String(error)}`);
    },
    topUp: (client) => queue.topUp(client),
    // Said on stderr: the exit code alone does not tell a plane that stopped from one that dropped a client.
    planeGone: (what) => {
      if (abort.signal.aborted) return;
      options.err(`fleet demo: ${what}; the demo ends (the plane's log: ${homePaths(options.home).log})`);
      stop('plane gone');
    },
  };

  const agents = PROFILES.map((profile) => new SimAgent(profile, world));
  // The demo's own connection (the train's events, the queue) ending is the same news as an agent's.
  operator.onClose(() => world.planeGone(`its operator connection ended: ${operator.closedBecause ?? 'the plane closed it'}`));
  try {
    // A build takes a moment (at the demo's pace), so accepted items queue up and the train builds batches.
    const build = `'${process.execPath.replace(/'/g, "'\\''")}' scripts/build.mjs ${Math.round(BUILD_MS / options.pace)}`;
    await operator.call('fleet_build_configure', { root: repo, command: build, timeoutSeconds: 60 });
    // The train lands every accepted item built on a branch of its own, a batch at a time, GREEN only.
    const { config } = await operator.call('fleet_integrate_configure', { root: repo, target: 'main', landOnAccept: true, buildCommand: build, timeoutSeconds: 60 });
    await train.start(operator, config.scope);
    await queue.addWave(operator);
    const status = await operator.call('fleet_status', {});
    banner(options, repo, planeWasRunning, status.plane.port, status.controlDetail.state);
    const others = status.agents.filter((agent) => !PROFILES.some((p) => agent.callsign === p.callsign || agent.callsign.startsWith(`${p.callsign}-`)));
    if (others.length > 0) {
      options.out(`Note: ${others.map((a) => a.callsign).join(', ')} ${others.length === 1 ? 'is' : 'are'} on this plane too and share its work queue; run the demo with --home DIR on a separate FLEET_HOME to keep it apart.\n`);
    }
    // One at a time: concurrent `git worktree add` in one repository fails ("failed to read
    // .git/worktrees/…/commondir"), and an agent still starting after another's failure would join after the wind-up.
    for (const [index, agent] of agents.entries()) {
      if (abort.signal.aborted) break;
      // Named here; the error itself (and its exit code) follows from the CLI.
      await agent.start().catch((error: unknown) => {
        options.err(`fleet demo: ${PROFILES[index]!.callsign} could not start:`);
        throw error;
      });
    }
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
  if (why !== 'plane gone') await trainDone(train, operator, repo, (message) => log('TRAIN', message));
  const statuses = why === 'plane gone' ? {} : await queue.windUp(operator, options.err);
  operator.close();
  if (!options.keepRepository) removeRepository(repo, options.here);
  const summary: DemoSummary = { repo, stats, train: train.stats, statuses, stoppedBecause: why };
  options.out(describeSummary(summary, options));
  return summary;
}

/** How long the sample project's build takes at pace 1. */
const BUILD_MS = 2000;

/** How long the demo waits on its way out for the train to finish what it holds (its builds take a moment). */
const TRAIN_WAIT_MS = 15_000;

/** How often the wait for the train says how it stands. */
const TRAIN_PROGRESS_MS = 3_000;

/**
 * Waits (bounded) until the train holds none of the demo's work, saying how it stands as it goes:
 * what it is landing lands, or is sent back. What is still on it when the wait ends is taken off by
 * the wind-up's rollback (a decision on a landing item takes it off the train).
 */
async function trainDone(train: TrainWatch, operator: PlaneClient, repo: string, say: (message: string) => void): Promise<void> {
  const until = Date.now() + TRAIN_WAIT_MS;
  let saidAt = 0;
  for (let onTrain = await train.onTrain(operator, repo); onTrain.length > 0; onTrain = await train.onTrain(operator, repo)) {
    if (Date.now() >= until) {
      say(`the train still holds ${onTrain.join(', ')} after ${TRAIN_WAIT_MS / 1000} s: taken off it and rolled back`);
      return;
    }
    if (Date.now() - saidAt >= TRAIN_PROGRESS_MS) {
      saidAt = Date.now();
      say(`waiting for the train to land ${onTrain.join(', ')} (at most ${Math.ceil((until - Date.now()) / 1000)} s more)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function removeRepository(repo: string, here: string | undefined): void {
  rmSync(repo, { recursive: true, force: true });
  if (here === undefined) return;
  const folder = join(here, HERE_FOLDER);
  if (existsSync(folder) && readdirSync(folder).length === 0) rmSync(folder, { recursive: true, force: true });
}

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
    `Its RTE keeps ${OPEN_WAVES} waves of work queued (at most ${MAX_DEMO_ITEMS} items, finished waves removed as newer ones finish).`,
    'Ctrl-C ends the demo: the agents leave and its work items leave the queue (unfinished ones rolled back first).',
    '',
  ];
  if (control !== 'run') lines.push(`The fleet is ${control}: the agents wait until \`fleet resume${homeFlag}\`.`, '');
  options.out(lines.join('\n'));
}

function describeSummary(summary: DemoSummary, options: DemoOptions): string {
  const { stats } = summary;
  const unfinished = Object.entries(summary.statuses)
    .filter(([status]) => !FINISHED_STATUSES.has(status as WorkStatus))
    .reduce((n, [, count]) => n + count, 0);
  const statuses = Object.entries(summary.statuses)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  return [
    '',
    `Demo ended (${summary.stoppedBecause === 'duration' ? `after ${options.durationSeconds} s` : summary.stoppedBecause}).`,
    `  work: ${stats.pulled} pulled, ${stats.completed} completed by builders, ${stats.verified} verified (${stats.rework} sent back for rework), ${stats.accepted} accepted as done`,
    `  train: ${summary.train.landed} landed on main, ${summary.train.conflictsForecast} conflicts forecast, ${summary.train.conflictsHit} sent back for a conflict, ${summary.train.redBuilds} RED builds (the culprit sent back)`,
    `  coordination: ${stats.handoffs} handoffs, ${stats.builds} builds requested`,
    `  tasks in the queue when it ended: ${statuses || 'none'}${unfinished > 0 ? ` (the ${unfinished} unfinished rolled back)` : ''}${stats.errors > 0 ? `\n  errors: ${stats.errors} (see above)` : ''}`,
  ].join('\n');
}

const clock = (started: number) => {
  const seconds = Math.floor((Date.now() - started) / 1000);
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
};

