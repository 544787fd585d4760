import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ControlBrief, MethodName, Params, Result, WorkItem } from '../../contracts/index.js';
import { connectToPlane } from '../client/connect.js';
import { PlaneCallError, type PlaneClient } from '../client/plane-client.js';
import type { CommitQueue } from './sample-repo.js';
import { WAVE } from './work-plan.js';

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
  conflicts: number;
  builds: number;
  errors: number;
}

/** What the simulated agents share with the demo that runs them. */
export interface DemoWorld {
  home: string;
  repo: string;
  commits: CommitQueue;
  pace: number;
  stats: DemoStats;
  signal: AbortSignal;
  random(): number;
  log(callsign: string, message: string): void;
  error(callsign: string, error: unknown): void;
  /** The RTE tops up the demo's queue to its few waves ahead: the new wave's number, or undefined when full enough. */
  topUp(client: PlaneClient): Promise<number | undefined>;
  planeGone(): void;
}

const BUILD_STEPS = 3;
const HANDOFF_CHANCE = 0.2;
const CONTEST_CHANCE = 0.25;
const FAIL_CHANCE = 0.12;

/**
 * One simulated agent with its own connection, behaving as the AGENTS.md block asks a real one
 * to: join, pull work, claim before writing, obey the fleet switch on every step, heartbeat, and
 * hand off before its "context runs out".
 */
export class SimAgent {
  private client!: PlaneClient;
  private token: string | undefined;
  private control: ControlBrief = { state: 'run' };
  private onRoster = false;
  private current: { item: WorkItem; claimIds: string[]; progress: number } | undefined;
  private reportedNote: string | undefined;
  private leaseCheckedAt = 0;
  callsign: string;

  constructor(
    private readonly profile: AgentProfile,
    private readonly world: DemoWorld,
  ) {
    this.callsign = profile.callsign;
  }

  async start(): Promise<void> {
    this.client = await connectToPlane({ home: this.world.home, client: `fleet-demo-${this.profile.callsign}` });
    this.client.onClose(() => {
      if (!this.world.signal.aborted) this.world.planeGone();
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
    if (this.onRoster) await this.client.call('fleet_agent_leave', {}).catch(() => undefined);
    this.onRoster = false;
    this.client.close();
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
          worktree: this.world.repo,
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
      this.world.log(this.callsign, `pulled ${pulled.item.id} "${pulled.item.title}" and claimed ${pulled.claims.map((c) => c.pattern).join(', ') || 'nothing'}`);
      return;
    }
    const work = this.current;
    await this.report('active', `step ${work.progress + 1} of ${BUILD_STEPS}`, work.item.title);
    await this.sleep(this.profile.stepMs);
    if (this.world.signal.aborted || this.control.state === 'pause' || this.control.state === 'stop') return;
    for (const path of work.item.paths) this.touch(path, `${work.item.title}: step ${work.progress + 1} by ${this.callsign}`);
    work.progress++;
    if (this.world.random() < CONTEST_CHANCE) await this.noteInChangelog(work.item);
    if (work.progress === 1 && this.world.random() < HANDOFF_CHANCE && (await this.handOff(work))) return;
    if (work.progress < BUILD_STEPS) return;
    await this.world.commits.commit(work.item.paths, `${work.item.title} (${this.callsign})`);
    const done = await this.call('fleet_work_update', {
      id: work.item.id,
      action: 'complete',
      artifact: { touchedFiles: work.item.paths, commands: [{ command: 'npm test', exitCode: 0 }], criteria: work.item.criteria, summary: `${work.item.title}, in ${BUILD_STEPS} steps` },
    });
    this.current = undefined;
    this.world.stats.completed++;
    this.world.log(this.callsign, `completed ${work.item.id}: now ${done.item.status}, its claims released`);
  }

  /** A shared file everybody wants a line in: claimed briefly, so conflicts happen and are handled. */
  private async noteInChangelog(item: WorkItem): Promise<void> {
    const claim = await this.call('fleet_claim_path', { patterns: ['CHANGELOG.md'], ttlSeconds: 30, reason: `changelog line for ${item.id}`, root: this.world.repo });
    if (!claim.granted) {
      if (claim.refusedBy === 'conflict') {
        this.world.stats.conflicts++;
        this.world.log(this.callsign, `CHANGELOG.md is held by ${claim.conflicts.map((c) => c.holder).join(', ')}: skipping the changelog line for now`);
      }
      return;
    }
    this.touch('CHANGELOG.md', `- ${item.title} (${this.callsign})`);
    await this.sleep(this.profile.stepMs / 2);
    await this.world.commits.commit(['CHANGELOG.md'], `changelog: ${item.title}`);
    await this.call('fleet_release_path', { claimIds: claim.claims.map((c) => c.id) });
  }

  /** "My context is running out": the item and its claims go to another builder, who picks them up. */
  private async handOff(work: NonNullable<SimAgent['current']>): Promise<boolean> {
    const roster = await this.call('fleet_roster', {});
    const others = roster.agents.filter((a) => a.role === 'builder' && a.callsign !== this.callsign && a.status !== 'unknown');
    if (others.length === 0) return false;
    const to = others[Math.floor(this.world.random() * others.length)]!.callsign;
    const sent = await this.call('fleet_agent_handoff', {
      to: { callsign: to },
      summary: `${work.item.title}: step ${work.progress} of ${BUILD_STEPS} done; my context window is nearly full`,
      context: `Touched ${work.item.paths.join(', ')}. Criteria: ${work.item.criteria.join('; ')}.`,
      filesTouched: work.item.paths,
      nextSteps: [`finish the remaining ${BUILD_STEPS - work.progress} steps`, 'complete the item with the artifact'],
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
    // Handoffs happen after the first step: the recipient continues from the second.
    this.current = { item, claimIds: accepted.claims.map((c) => c.id), progress: 1 };
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
      this.world.log(this.callsign, `accepted ${item.id} "${item.title}": ${decided.item.status}`);
      if (this.world.stats.accepted % 3 === 0) {
        const build = await this.call('fleet_build_verify', { root: this.world.repo });
        this.world.stats.builds++;
        this.world.log(this.callsign, `asked the plane for a build (${build.run.id}, ${build.run.status})`);
      }
      return;
    }
    if (this.control.state === 'run') {
      const wave = await this.world.topUp(this.client);
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
    const file = join(this.world.repo, path);
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, path.endsWith('.md') ? `${line}\n` : `// ${line}\n`);
  }

  private async call<N extends MethodName>(method: N, params: Params<N>): Promise<Result<N>> {
    const result = await this.client.call(method, params);
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
