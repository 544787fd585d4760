import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ControlBrief, MethodName, Params, Result, WorkItem } from '../../contracts/index.js';
import { connectToPlane } from '../client/connect.js';
import { PlaneCallError, type PlaneClient } from '../client/plane-client.js';
import { addWorktree, git, PLANTED_BUG } from './sample-repo.js';
import { WAVE, type PlannedTask } from './work-plan.js';

export type SimRole = 'builder' | 'verifier' | 'rte';

export interface AgentProfile {
  callsign: string;
  role: SimRole;
  /** How long one step of work takes this agent, in ms at pace 1: the fleet has fast and slow members. */
  stepMs: number;
  speed: string;
}

export interface DemoStats {
  pulled: number;
  completed: number;
  verified: number;
  rework: number;
  accepted: number;
  handoffs: number;
  builds: number;
  errors: number;
}

/** What the simulated agents share with the demo that runs them. */
export interface DemoWorld {
  home: string;
  repo: string;
  /** The first wave's planted items still to be planted: removed once the train sends one back. */
  plants: Map<string, NonNullable<PlannedTask['plant']>>;
  /** Items the train sent back, and why: their rework merges the new target (and fixes what was planted). */
  sentBack: Map<string, 'conflict' | 'red'>;
  /** The branch each item is being built on, so a builder who accepts a handoff continues it. */
  branches: Map<string, string>;
  pace: number;
  stats: DemoStats;
  signal: AbortSignal;
  random(): number;
  log(callsign: string, message: string): void;
  error(callsign: string, error: unknown): void;
  /** The RTE tops up the demo's queue to its few waves ahead: the new wave's number, or undefined when full enough. */
  topUp(client: PlaneClient): Promise<number | undefined>;
  /** A connection of the demo (an agent's, its operator's) ended while it ran: `what` says whose, and why. */
  planeGone(what: string): void;
}

const BUILD_STEPS = 3;
const HANDOFF_CHANCE = 0.2;
const FAIL_CHANCE = 0.12;
/** How long a builder sent back for a conflict looks for it in the forecast before merging the target. */
const FORECAST_WAIT_MS = 5000;

/**
 * One simulated agent with its own connection, behaving as the AGENTS.md block asks a real one
 * to: join, pull work, claim before writing, obey the fleet switch on every step, heartbeat, and
 * hand off before its "context runs out".
 */
export class SimAgent {
  /** Undefined until start() connects: a start that failed before then has nothing to close. */
  private client: PlaneClient | undefined;
  private token: string | undefined;
  private control: ControlBrief = { state: 'run' };
  private onRoster = false;
  private current: { item: WorkItem; claimIds: string[]; progress: number } | undefined;
  private reportedNote: string | undefined;
  private leaseCheckedAt = 0;
  /** Where this agent works: builders in a worktree of their own, the others in the sample repository's checkout. */
  private worktree: string;
  callsign: string;

  constructor(
    private readonly profile: AgentProfile,
    private readonly world: DemoWorld,
  ) {
    this.callsign = profile.callsign;
    this.worktree = world.repo;
  }

  async start(): Promise<void> {
    if (this.profile.role === 'builder') this.worktree = await addWorktree(this.world.repo, this.profile.callsign);
    // The demo's plane is up (its operator connection found or started it): one gone meanwhile is news, not a reason to start another.
    const client = await connectToPlane({ home: this.world.home, client: `fleet-demo-${this.profile.callsign}`, autoStart: false });
    this.client = client;
    client.onClose(() => {
      if (!this.world.signal.aborted) this.world.planeGone(`${this.callsign}'s connection ended: ${client.closedBecause ?? 'the plane closed it'}`);
    });
    await this.join();
  }

  async run(): Promise<void> {
    while (!this.world.signal.aborted) {
      try {
        await this.step();
      } catch (error) {
        if (this.world.signal.aborted) break;
        this.world.error(this.callsign, error);
        await this.sleep(this.profile.stepMs);
      }
    }
  }

  /** Leaves the roster: claims released, unfinished work back to the queue. */
  async leave(): Promise<void> {
    if (this.onRoster) await this.client?.call('fleet_agent_leave', {}).catch(() => undefined);
    this.onRoster = false;
    this.client?.close();
  }

  private async step(): Promise<void> {
    if (this.control.state === 'stop') {
      if (this.onRoster) await this.windDown();
      await this.idlePoll();
      return;
    }
    if (!this.onRoster) await this.join();
    if (this.control.state === 'pause') {
      await this.idle(this.current ? `paused, holding ${this.current.item.id}` : 'paused by the operator');
      return;
    }
    if (this.profile.role === 'builder') await this.builderStep();
    else if (this.profile.role === 'verifier') await this.verifierStep();
    else await this.rteStep();
  }

  private async join(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const callsign = attempt === 1 ? this.profile.callsign : `${this.profile.callsign}-${attempt}`;
      try {
        const joined = await this.call('fleet_agent_join', {
          callsign: this.token ? this.callsign : callsign,
          runtime: 'demo',
          role: this.profile.role,
          worktree: this.worktree,
          ...(this.token && { sessionToken: this.token }),
        });
        this.callsign = joined.callsign;
        this.token = joined.sessionToken;
        this.onRoster = true;
        this.reportedNote = undefined;
        this.world.log(this.callsign, `${joined.rejoined ? 're-joined' : 'joined'} as ${this.profile.role} (${this.profile.speed})`);
        return;
      } catch (error) {
        if (!(error instanceof PlaneCallError && error.errorName === 'CALLSIGN_TAKEN') || attempt >= 9 || this.token) throw error;
      }
    }
  }

  // ── builders ──────────────────────────────────────────────────────────────────────────────

  private async builderStep(): Promise<void> {
    if (!this.current && (await this.acceptHandoff())) return;
    if (!this.current) {
      if (this.control.state === 'drain') return this.idle('draining: holding nothing, pulling nothing new');
      const pulled = await this.call('fleet_work_pull', {});
      if (pulled.refusedBy === 'control') return;
      if (!pulled.item) return this.idle('waiting for ready work');
      this.current = { item: pulled.item, claimIds: pulled.claims.map((c) => c.id), progress: 0 };
      this.world.stats.pulled++;
      const branch = await this.startBranch(pulled.item);
      this.world.log(this.callsign, `pulled ${pulled.item.id} "${pulled.item.title}", claimed ${pulled.claims.map((c) => c.pattern).join(', ') || 'nothing'}, on branch ${branch}`);
      return;
    }
    const work = this.current;
    await this.report('active', `step ${work.progress + 1} of ${BUILD_STEPS}`, work.item.title);
    await this.sleep(this.profile.stepMs);
    if (this.world.signal.aborted || this.control.state === 'pause' || this.control.state === 'stop') return;
    for (const path of work.item.paths) this.touch(path, `${work.item.title}: step ${work.progress + 1} by ${this.callsign}`);
    if (work.progress === 0) this.plant(work.item);
    work.progress++;
    if (work.progress === 1 && this.world.random() < HANDOFF_CHANCE && (await this.handOff(work))) return;
    if (work.progress < BUILD_STEPS) return;
    await this.commit(`${work.item.title} (${this.callsign})`);
    const done = await this.call('fleet_work_update', {
      id: work.item.id,
      action: 'complete',
      artifact: { touchedFiles: work.item.paths, commands: [{ command: 'node scripts/build.mjs', exitCode: 0 }], criteria: work.item.criteria, summary: `${work.item.title}, in ${BUILD_STEPS} steps` },
    });
    this.current = undefined;
    this.world.stats.completed++;
    // Its branch now waits for the train: the worktree leaves it, so only work in progress is forecast.
    await git(this.worktree, 'switch', '-q', '--detach', 'main');
    this.world.log(this.callsign, `completed ${work.item.id} on ${this.world.branches.get(work.item.id)}: now ${done.item.status}, its claims held until it lands`);
  }

  /**
   * A branch of its own for the item: from the target, or where the work stands (a handoff's
   * branch; for rework, the commit it was completed at, with the target merged in: the rework is
   * done on the new target). A planted item sent back by the train is fixed here.
   */
  private async startBranch(item: WorkItem, from?: string): Promise<string> {
    const branch = `${this.callsign.toLowerCase()}/${item.id}${item.reworkRounds > 0 ? `-rework-${item.reworkRounds}` : ''}${from !== undefined ? '-handed-off' : ''}`;
    // What an item abandoned here left (the fleet stopped, the operator took it back) is not this item's.
    await git(this.worktree, 'reset', '-q', '--hard');
    await git(this.worktree, 'clean', '-q', '-fd');
    await git(this.worktree, 'switch', '-q', '-C', branch, from ?? item.integration?.commit ?? 'main');
    this.world.branches.set(item.id, branch);
    const cause = from === undefined ? this.world.sentBack.get(item.id) : undefined;
    if (cause !== undefined) {
      this.world.sentBack.delete(item.id);
      if (cause === 'conflict') await this.awaitForecast(branch);
      await this.mergeTarget(item);
    }
    return branch;
  }

  /** Sent back for a conflict: the builder looks at the forecast for its branch (bounded), as it names the files. */
  private async awaitForecast(branch: string): Promise<void> {
    const until = Date.now() + FORECAST_WAIT_MS;
    while (Date.now() < until && !this.world.signal.aborted) {
      const { conflicts } = await this.call('fleet_conflicts', { callsign: this.callsign });
      const mine = conflicts.find((c) => c.branch?.endsWith(`/${branch}`));
      if (mine) {
        this.world.log(this.callsign, `the forecast agrees: ${branch} conflicts with ${mine.otherCallsign ?? 'main'} in ${mine.paths.join(', ')}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  private async mergeTarget(item: WorkItem): Promise<void> {
    const merged = await git(this.worktree, 'merge', '-q', '--no-edit', 'main').then(
      () => undefined,
      async () => (await git(this.worktree, 'diff', '--name-only', '--diff-filter=U')).stdout.trim().split('\n'),
    );
    if (!this.world.plants.has(item.id)) this.unplant(item);
    if (merged === undefined) return;
    // The target's side wins where they meet; the item's own steps are redone on top of it.
    await git(this.worktree, 'checkout', '-q', '--theirs', '--', ...merged);
    await this.commit(`merge main into ${item.id}: ${merged.join(', ')} taken from main`);
    this.world.log(this.callsign, `merged the new main into ${item.id}: the conflict in ${merged.join(', ')} resolved`);
  }

  /** The first wave's planted trouble, written at the item's first step until the train has sent it back. */
  private plant(item: WorkItem): void {
    const plant = this.world.plants.get(item.id);
    if (plant === undefined) return;
    if ('edits' in plant) {
      this.touch(plant.edits, `${item.title}: ${this.callsign} also edits this file, outside the item's paths`);
      this.world.log(this.callsign, `(planted) also edits ${plant.edits}, which another item of the wave changes: a conflict for the forecast and the train`);
    } else {
      this.touch(item.paths[0]!, PLANTED_BUG);
      this.world.log(this.callsign, `(planted) writes a line into ${item.paths[0]} that makes the build RED`);
    }
  }

  /** The fix of a planted build breaker: its line removed. */
  private unplant(item: WorkItem): void {
    for (const path of item.paths) {
      const file = join(this.worktree, path);
      const text = readFileSync(file, 'utf8');
      if (!text.includes(PLANTED_BUG)) continue;
      writeFileSync(file, text.split('\n').filter((line) => !line.includes(PLANTED_BUG)).join('\n'));
      this.world.log(this.callsign, `fixed ${path}: the line that broke the build is gone`);
    }
  }

  private async commit(message: string): Promise<void> {
    await git(this.worktree, 'add', '-A');
    const staged = (await git(this.worktree, 'diff', '--cached', '--name-only')).stdout.trim();
    if (staged !== '') await git(this.worktree, 'commit', '-q', '-m', message);
  }

  /** "My context is running out": the item, its branch and its claims go to another builder, who picks them up. */
  private async handOff(work: NonNullable<SimAgent['current']>): Promise<boolean> {
    const roster = await this.call('fleet_roster', {});
    const others = roster.agents.filter((a) => a.role === 'builder' && a.callsign !== this.callsign && a.status !== 'unknown');
    if (others.length === 0) return false;
    const to = others[Math.floor(this.world.random() * others.length)]!.callsign;
    const branch = this.world.branches.get(work.item.id)!;
    await this.commit(`${work.item.title}: step ${work.progress} of ${BUILD_STEPS} (work in progress, handed off)`);
    const sent = await this.call('fleet_agent_handoff', {
      to: { callsign: to },
      summary: `${work.item.title}: step ${work.progress} of ${BUILD_STEPS} done on ${branch}; my context window is nearly full`,
      context: `Touched ${work.item.paths.join(', ')}, committed on ${branch}. Criteria: ${work.item.criteria.join('; ')}.`,
      filesTouched: work.item.paths,
      nextSteps: [`continue from ${branch}`, `finish the remaining ${BUILD_STEPS - work.progress} steps`, 'complete the item with the artifact'],
      claims: work.claimIds,
      workItem: work.item.id,
      ttlSeconds: 600,
    });
    this.current = undefined;
    this.world.stats.handoffs++;
    this.world.log(this.callsign, `handed ${work.item.id} off to ${to} (${sent.handoff.id}): claims in escrow until accepted`);
    return true;
  }

  private async acceptHandoff(): Promise<boolean> {
    if (this.control.state === 'stop') return false;
    const inbox = await this.call('fleet_inbox', { unreadOnly: true, limit: 20 });
    const handoff = inbox.handoffs.find((h) => h.status === 'pending' && 'callsign' in h.envelope.to && h.envelope.to.callsign === this.callsign);
    if (!handoff || handoff.envelope.workItem === undefined) return false;
    const accepted = await this.call('fleet_handoff_respond', { handoffId: handoff.id, accept: true });
    const items = await this.call('fleet_work_list', { status: 'in_progress' });
    const item = items.items.find((i) => i.id === handoff.envelope.workItem);
    if (!item) return false;
    // Handoffs happen after the first step: the recipient continues from the second, on the sender's branch.
    this.current = { item, claimIds: accepted.claims.map((c) => c.id), progress: 1 };
    await this.startBranch(item, this.world.branches.get(item.id) ?? 'main');
    this.world.log(this.callsign, `accepted handoff ${handoff.id} from ${handoff.envelope.from}: continuing ${item.id} with ${accepted.claims.map((c) => c.pattern).join(', ')}`);
    return true;
  }

  // ── the verifier ───────────────────────────────────────────────────────────────────────────

  private async verifierStep(): Promise<void> {
    if (!this.current) {
      if (this.control.state === 'drain') return this.idle('draining: no new reviews');
      const pulled = await this.call('fleet_work_pull', {});
      if (pulled.refusedBy === 'control') return;
      if (!pulled.item) return this.idle('nothing waiting for review');
      this.current = { item: pulled.item, claimIds: [], progress: 0 };
      this.world.log(this.callsign, `reviewing ${pulled.item.id} "${pulled.item.title}" (built by someone else)`);
      return;
    }
    const item = this.current.item;
    await this.report('active', 'checking the criteria independently', `verify ${item.title}`);
    await this.sleep(this.profile.stepMs);
    if (this.world.signal.aborted || this.control.state === 'pause' || this.control.state === 'stop') return;
    const criteria = item.criteria.length > 0 ? item.criteria : ['it builds'];
    const verdicts = criteria.map((criterion) => {
      const fail = this.world.random() < FAIL_CHANCE;
      return { criterion, verdict: fail ? ('fail' as const) : ('pass' as const), evidence: fail ? `re-ran the check: "${criterion}" does not hold yet` : `re-ran the check: "${criterion}" holds` };
    });
    const result = await this.call('fleet_work_update', { id: item.id, action: 'verify', report: { verdicts } });
    this.current = undefined;
    if (result.item.status === 'verified') this.world.stats.verified++;
    else this.world.stats.rework++;
    const why = { rework: ' (a criterion failed; back to the builders)', escalated: ' (its rework rounds are spent: the operator decides)' }[result.item.status as string] ?? '';
    this.world.log(this.callsign, `verified ${item.id}: ${result.item.status}${why}`);
  }

  // ── the RTE ────────────────────────────────────────────────────────────────────────────────

  private async rteStep(): Promise<void> {
    if (Date.now() - this.leaseCheckedAt > 5000) {
      this.leaseCheckedAt = Date.now();
      const lease = await this.call('fleet_rte_lease', { action: 'acquire', ttlSeconds: 60 });
      if (!lease.held) this.world.log(this.callsign, `the RTE lease is held by ${lease.holder}: deciding anyway as an rte`);
    }
    const verified = await this.call('fleet_work_list', { status: 'verified' });
    const item = verified.items[0];
    if (item) {
      await this.report('active', 'deciding verified work', `accept ${item.title}`);
      await this.sleep(this.profile.stepMs / 2);
      const decided = await this.call('fleet_work_update', {
        id: item.id,
        action: 'decide',
        decision: { disposition: 'accept', reasonCode: 'criteria-verified', refs: item.report?.artifactId !== undefined ? [item.report.artifactId] : [], note: `verified by ${item.verifier ?? 'a verifier'}` },
      });
      this.world.stats.accepted++;
      this.world.log(this.callsign, `accepted ${item.id} "${item.title}": ${decided.item.status}${decided.item.status === 'landing' ? ' (queued on the train)' : ''}`);
      if (this.world.stats.accepted % 3 === 0) {
        const build = await this.call('fleet_build_verify', { root: this.world.repo });
        this.world.stats.builds++;
        this.world.log(this.callsign, `asked the plane for a build (${build.run.id}, ${build.run.status})`);
      }
      return;
    }
    if (this.control.state === 'run') {
      const wave = await this.world.topUp(this.client!);
      if (wave !== undefined) {
        this.world.log(this.callsign, `seeded wave ${wave}: ${WAVE.length} more tasks for the builders`);
        return;
      }
    }
    await this.idle(this.control.state === 'drain' ? 'draining: deciding what is verified, adding nothing' : 'waiting for verified work');
  }

  // ── common ─────────────────────────────────────────────────────────────────────────────────

  private async windDown(): Promise<void> {
    const held = this.current?.item.id;
    await this.call('fleet_agent_leave', {});
    this.onRoster = false;
    this.current = undefined;
    this.world.log(this.callsign, `fleet stopped: left the roster${held ? ` (${held} went back to the queue)` : ''}; waiting for the operator to resume`);
  }

  /** Idle: says so once, then polls the switch (a call counts as a heartbeat). */
  private async idle(note: string): Promise<void> {
    if (this.reportedNote !== note) await this.report('idle', note, undefined);
    await this.idlePoll();
  }

  private async idlePoll(): Promise<void> {
    await this.sleep(Math.min(this.profile.stepMs, 1000));
    if (!this.world.signal.aborted) await this.call('fleet_control_get', {});
  }

  private async report(status: 'active' | 'idle', note: string, task: string | undefined): Promise<void> {
    this.reportedNote = note;
    await this.call('fleet_agent_heartbeat', { status, note, ...(task !== undefined && { task }) });
  }

  private touch(path: string, line: string): void {
    const file = join(this.worktree, path);
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, path.endsWith('.md') ? `${line}\n` : `// ${line}\n`);
  }

  private async call<N extends MethodName>(method: N, params: Params<N>): Promise<Result<N>> {
    const result = await this.client!.call(method, params);
    const control = (result as { control?: ControlBrief }).control;
    if (control && control.state !== this.control.state) {
      this.world.log(this.callsign, `noticed the fleet switch: ${control.state}${control.reason ? ` (${control.reason})` : ''}`);
    }
    if (control) this.control = control;
    return result;
  }

  private sleep(ms: number): Promise<void> {
    const signal = this.world.signal;
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms / this.world.pace);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
