// 32 agent processes doing claim/release cycles on mostly disjoint files (10% on shared files),
// against the plane and against the two designs a user would pick instead, with the same agent
// code, the same workload and the same clock. Every agent is its own process, as it would be.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempHome } from '../../test/support/plane-process.js';
import { createLedgerBaseline } from '../agents/ledger-agent.js';
import type { SystemConfig, SystemName } from '../agents/claim-system.js';
import type { AgentReport, FromAgent, Hold, ToAgent } from '../agents/protocol.js';
import { createSqliteBaseline } from '../agents/sqlite-agent.js';
import { track } from '../lib/children.js';
import { settleDisk } from '../lib/disk.js';
import { FloorPeer } from '../lib/floor-client.js';
import { PlaneHandle } from '../lib/plane-handle.js';
import { formatProfile, summarizeProfile } from '../lib/profile-summary.js';
import { count, Report, times, us } from '../lib/report.js';
import { summarize, type Summary } from '../lib/stats.js';
import { sharedTreeRepo } from '../lib/tree.js';

const WORKER = fileURLToPath(new URL('../agents/agent-worker.js', import.meta.url));
export const AGENTS = 32;
/**
 * The offered load of the equal-load runs, per agent: 32 × 40 cycles/s ≈ 2,560 durable ops/s,
 * well inside what the plane and SQLite each sustain, so latency there is service, not queueing.
 */
const PACED_CYCLES_PER_SECOND = 40;

interface Options {
  quick: boolean;
  profile: boolean;
  outDir: string;
}

export interface SystemFigures {
  system: SystemName;
  label: string;
  agents: number;
  processes: number;
  /** Cycles per second each agent was paced to; unpaced (saturating) when absent. */
  cyclesPerSecond?: number;
  seconds: number;
  claims: number;
  granted: number;
  refused: number;
  releases: number;
  durableOps: number;
  durableOpsPerSecond: number;
  claimsPerSecond: number;
  fsyncs: number;
  fsyncsPerSecond: number;
  fsyncSource: string;
  durableOpsPerFsync: number;
  claimLatency: Summary;
  releaseLatency: Summary;
  opLatency: Summary;
  doubleGrants: number;
  errors: string[];
  planeCpuMicrosPerOp?: number;
  /** Durable ops of the least and the most served agent process: how fair the system is. */
  slowestProcessOps: number;
  fastestProcessOps: number;
  /** CPU of all agent processes together per durable op. */
  agentCpuMicrosPerOp: number;
}

class Agent {
  private readonly inbox: FromAgent[] = [];
  private waiter: ((message: FromAgent) => void) | undefined;

  constructor(readonly child: ChildProcess) {
    const deliver = (message: FromAgent) => {
      if (this.waiter) {
        const waiter = this.waiter;
        this.waiter = undefined;
        waiter(message);
      } else {
        this.inbox.push(message);
      }
    };
    child.on('message', deliver);
    child.once('exit', (code, signal) => deliver({ type: 'failed', error: `the agent process exited (${signal ?? code})` }));
  }

  static spawn(): Agent {
    return new Agent(track(fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })));
  }

  exit(): Promise<void> {
    if (this.child.exitCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ type: 'exit' } satisfies ToAgent);
    return exited;
  }

  send(message: ToAgent): void {
    this.child.send(message);
  }

  async next<T extends FromAgent['type']>(type: T): Promise<Extract<FromAgent, { type: T }>> {
    const message = this.inbox.shift() ?? (await new Promise<FromAgent>((resolve) => (this.waiter = resolve)));
    if (message.type === 'failed') throw new Error(`agent process failed: ${message.error}`);
    if (message.type !== type) throw new Error(`agent process sent ${message.type}, expected ${type}`);
    return message as Extract<FromAgent, { type: T }>;
  }
}

/**
 * Two agents held one path at once: one's hold (grant received → release sent) started inside
 * another agent's hold of the same path. Both ends of a hold lie strictly inside the system's
 * own grant → release interval, so any overlap here is a real double grant.
 */
export function countDoubleGrants(holds: Hold[]): number {
  const byPath = new Map<string, { agent: number; from: number; to: number }[]>();
  for (const [path, from, to, agent] of holds) {
    let list = byPath.get(path);
    if (!list) byPath.set(path, (list = []));
    list.push({ agent, from, to });
  }
  let doubles = 0;
  for (const holds of byPath.values()) {
    holds.sort((a, b) => a.from - b.from);
    let open: { agent: number; to: number } | undefined;
    for (const hold of holds) {
      if (open && hold.from < open.to && hold.agent !== open.agent) doubles++;
      if (!open || hold.to > open.to) open = { agent: hold.agent, to: hold.to };
    }
  }
  return doubles;
}

async function runSystem(
  system: SystemName,
  label: string,
  workers: Agent[],
  perProcess: number,
  cyclesPerSecond: number | undefined,
  seconds: number,
  warmupSeconds: number,
  root: string,
  options: Options,
): Promise<{ figures: SystemFigures; profile?: string }> {
  settleDisk();
  const dir = tempHome(`fleet-bench-${system}-`);
  let plane: PlaneHandle | undefined;
  let peer: FloorPeer | undefined;
  const profileDir = join(options.outDir, 'profiles');
  const config: Omit<SystemConfig, 'index'> = { system };
  const profilePath = join(profileDir, `plane-throughput-${label.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`);
  try {
    if (system === 'plane') {
      plane = await PlaneHandle.start({ home: dir });
      // Through the plane's Unix socket, as its local clients connect by default.
      Object.assign(config, { address: plane.address, token: plane.token, root });
    } else if (system === 'echo') {
      peer = await FloorPeer.start();
      await peer.mode('echo', '', 0, dir);
      Object.assign(config, { address: peer.unixAddress, root });
    } else if (system === 'sqlite') {
      config.path = join(dir, 'claims.sqlite');
      createSqliteBaseline(config.path);
    } else {
      config.path = join(dir, 'ledger.json');
      createLedgerBaseline(config.path);
      if (system === 'ledger-unlocked') config.overlapShare = 1;
    }
    const agents = workers;
    agents.forEach((agent, p) =>
      agent.send({ type: 'setup', configs: Array.from({ length: perProcess }, (_, k) => ({ ...config, index: p * perProcess + k })) }),
    );
    await Promise.all(agents.map((agent) => agent.next('ready')));
    const warmFrom = process.hrtime.bigint() + 200_000_000n;
    const start = warmFrom + BigInt(Math.round(warmupSeconds * 1e9));
    const until = start + BigInt(Math.round(seconds * 1e9));
    agents.forEach((agent) => agent.send({ type: 'go', warmFrom: String(warmFrom), start: String(start), until: String(until), ...(cyclesPerSecond !== undefined && { cyclesPerSecond }) }));
    await new Promise((resolve) => setTimeout(resolve, Number(start - process.hrtime.bigint()) / 1e6));
    if (options.profile && plane) {
      mkdirSync(profileDir, { recursive: true });
      plane.profileStart();
    }
    const before = await plane?.stats();
    const reports: AgentReport[] = (await Promise.all(agents.map((agent) => agent.next('done')))).map((m) => m.report);
    const after = await plane?.stats();
    if (options.profile && plane) await plane.profileStop(profilePath);
    agents.forEach((agent) => agent.send({ type: 'teardown' }));
    await Promise.all(agents.map((agent) => agent.next('closed')));

    const sum = (pick: (r: AgentReport) => number) => reports.reduce((total, r) => total + pick(r), 0);
    const claimLatency = reports.flatMap((r) => r.claimLatency);
    const releaseLatency = reports.flatMap((r) => r.releaseLatency);
    const durableOps = sum((r) => r.granted + r.releases);
    const durableTotal = sum((r) => r.durableTotal);
    const fsyncs = before && after ? after.store.fsyncs - before.store.fsyncs : sum((r) => r.fsyncs);
    const figures: SystemFigures = {
      system,
      label,
      agents: agents.length * perProcess,
      processes: agents.length,
      ...(cyclesPerSecond !== undefined && { cyclesPerSecond }),
      seconds,
      claims: sum((r) => r.claims),
      granted: sum((r) => r.granted),
      refused: sum((r) => r.refused),
      releases: sum((r) => r.releases),
      durableOps,
      durableOpsPerSecond: durableOps / seconds,
      claimsPerSecond: sum((r) => r.claims) / seconds,
      fsyncs,
      fsyncsPerSecond: fsyncs / seconds,
      fsyncSource:
        system === 'plane'
          ? "the plane's store counters (EmbeddedStore.stats.fsyncs: event-log fdatasyncs, read over IPC from the plane process); ledger.json rewrites add at most 2 fsyncs per 200 ms, not counted"
          : system === 'echo'
            ? 'none: the echo floor writes nothing'
            : system === 'sqlite'
            ? 'committed write transactions: synchronous=FULL in WAL mode syncs the WAL once per commit (checkpoints add more, not counted)'
            : 'fdatasync calls the agents made (one per ledger write)',
      durableOpsPerFsync: durableTotal / Math.max(1, fsyncs),
      claimLatency: summarize(claimLatency),
      releaseLatency: summarize(releaseLatency),
      opLatency: summarize([...claimLatency, ...releaseLatency]),
      doubleGrants: countDoubleGrants(reports.flatMap((r) => r.holds)),
      errors: reports.flatMap((r) => r.errors).slice(0, 10),
      agentCpuMicrosPerOp: sum((r) => r.cpuMicros) / Math.max(1, durableTotal),
      slowestProcessOps: Math.min(...reports.map((r) => r.granted + r.releases)),
      fastestProcessOps: Math.max(...reports.map((r) => r.granted + r.releases)),
    };
    if (before && after) {
      const cpu = after.cpu.user - before.cpu.user + (after.cpu.system - before.cpu.system);
      figures.planeCpuMicrosPerOp = cpu / Math.max(1, durableTotal);
    }
    await plane?.stop();
    await peer?.stop();
    peer = undefined;
    const profile = options.profile && plane ? `${profilePath}\n${formatProfile(summarizeProfile(profilePath))}` : undefined;
    return { figures, ...(profile !== undefined && { profile }) };
  } finally {
    if (plane) await plane.kill();
    await peer?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function throughput(options: Options, report: Report): Promise<void> {
  const seconds = options.quick ? 1.5 : 10;
  const root = sharedTreeRepo();
  const agents = Array.from({ length: AGENTS }, () => Agent.spawn());
  const results: SystemFigures[] = [];
  try {
    const paced = `${AGENTS} agent processes at ${PACED_CYCLES_PER_SECOND} cycles/s each`;
    const runs: [SystemName, string, Agent[], number, number?][] = [
      ['plane', `plane, ${AGENTS} agent processes`, agents, 1],
      ['sqlite', `baseline (a) shared SQLite, BEGIN IMMEDIATE, ${AGENTS} agent processes`, agents, 1],
      ['ledger', `baseline (b) JSON ledger + lock file, ${AGENTS} agent processes`, agents, 1],
      // The same offered load for both: latency without the queueing of a saturated run.
      ['plane', `plane, ${paced}`, agents, 1, PACED_CYCLES_PER_SECOND],
      ['sqlite', `baseline (a) SQLite, ${paced}`, agents, 1, PACED_CYCLES_PER_SECOND],
    ];
    // The same ${AGENTS} connections from 4 processes: what the plane does when its clients cost less,
    // and SQLite packaged the same way, so that reading of the target compares like with like.
    if (!options.quick) {
      runs.push(['plane', `plane, ${AGENTS} connections from 4 processes`, agents.slice(0, 4), AGENTS / 4]);
      runs.push(['sqlite', `baseline (a) SQLite, ${AGENTS} connections from 4 processes`, agents.slice(0, 4), AGENTS / 4]);
    }
    // The throughput floors: the same agent processes and requests against a bare ws echo. Run
    // after the others: this burst of pure CPU load slowed the run right after it on this VM. Not
    // in --quick: the echo rate climbs for seconds, and a 1.5 s window read it ~40% low.
    if (!options.quick) {
      runs.push(['echo', `floor: bare ws echo, ${AGENTS} agent processes`, agents, 1]);
      runs.push(['echo', `floor: bare ws echo, ${AGENTS} connections from 4 processes`, agents.slice(0, 4), AGENTS / 4]);
    }
    // Control: the ledger without its lock, every cycle on a shared file, must show double grants,
    // or the detector proves nothing.
    runs.push(['ledger-unlocked', 'control: JSON ledger WITHOUT its lock, shared files only', agents, 1]);
    for (const [system, label, workers, perProcess, cyclesPerSecond] of runs) {
      const window = system === 'ledger-unlocked' || (cyclesPerSecond !== undefined && options.quick) ? 1 : seconds;
      const { figures, profile } = await runSystem(system, label, workers, perProcess, cyclesPerSecond, window, system === 'ledger-unlocked' ? 0 : options.quick ? 0.5 : 1.5, root, options);
      results.push(figures);
      if (profile) {
        report.set(`planeProfile ${label}`, profile);
        console.log(`\n  plane CPU profile under the throughput load:\n${profile.replace(/^/gm, '    ')}\n`);
      }
    }
  } finally {
    await Promise.all(agents.map((agent) => agent.exit()));
  }
  report.set('throughput', results);

  const t = 'throughput';
  const [plane, sqlite, ledger, planePaced, sqlitePaced] = results as [SystemFigures, SystemFigures, SystemFigures, SystemFigures, SystemFigures];
  const echo = results.find((figures) => figures.system === 'echo' && figures.processes === plane.processes);
  const control = results.find((figures) => figures.system === 'ledger-unlocked')!;
  for (const figures of results) {
    const name = figures.label;
    if (figures === control) continue;
    if (figures.system === 'echo') {
      // The echo "grants" everything, so its holds, fsyncs and refusals mean nothing.
      const served = results.find((f) => f.system === 'plane' && f.processes === figures.processes && f.cyclesPerSecond === undefined)!;
      report.add({
        section: t,
        figure: `${name}: round trips/s`,
        value: count(figures.durableOpsPerSecond),
        reference: `${us(figures.agentCpuMicrosPerOp)} CPU per round trip in the agent processes; p50 / p99 ${us(figures.opLatency.p50)} / ${us(figures.opLatency.p99)}`,
        ratio: `${served.system} ${times(served.durableOpsPerSecond / figures.durableOpsPerSecond)}`,
      });
      if (figures.errors.length > 0) report.add({ section: t, figure: `${name}: errors`, value: figures.errors[0]! });
      continue;
    }
    report.add({
      section: t,
      figure: `${name}: durable ops/s`,
      value: count(figures.durableOpsPerSecond),
      reference: `${count(figures.claimsPerSecond)} claims/s; ${count(figures.refused)} refused (conflicts) in ${figures.seconds} s`,
    });
    report.add({
      section: t,
      figure: `${name}: claim p50 / p99 / max`,
      value: `${us(figures.claimLatency.p50)} / ${us(figures.claimLatency.p99)} / ${us(figures.claimLatency.max)}`,
      reference: `release p50 ${us(figures.releaseLatency.p50)}, p99 ${us(figures.releaseLatency.p99)}`,
    });
    report.add({
      section: t,
      figure: `${name}: durable ops of the least / most served process`,
      value: `${count(figures.slowestProcessOps)} / ${count(figures.fastestProcessOps)}`,
    });
    report.add({
      section: t,
      figure: `${name}: fsyncs/s`,
      value: count(figures.fsyncsPerSecond),
      reference: `${figures.durableOpsPerFsync.toFixed(1)} durable ops per fsync`,
    });
    report.add({
      section: t,
      figure: `${name}: CPU per durable op`,
      value: figures.planeCpuMicrosPerOp !== undefined ? `${us(figures.planeCpuMicrosPerOp)} plane` : '—',
      reference: `${us(figures.agentCpuMicrosPerOp)} in the agent processes`,
    });
    report.target({ section: t, figure: `${name}: double grants`, value: String(figures.doubleGrants) }, figures.doubleGrants, 0, '0');
    if (figures.errors.length > 0) report.add({ section: t, figure: `${name}: errors`, value: figures.errors[0]! });
  }
  report.target(
    { section: t, figure: `${control.label}: double grants seen by the detector (${control.seconds} s)`, value: String(control.doubleGrants), reference: 'proves the detector sees double grants where they happen' },
    control.doubleGrants,
    1,
    '≥ 1',
    true,
  );
  const best = sqlite.durableOpsPerSecond >= ledger.durableOpsPerSecond ? sqlite : ledger;
  report.target(
    { section: t, figure: 'plane durable ops/s', value: count(plane.durableOpsPerSecond), reference: `${plane.planeCpuMicrosPerOp?.toFixed(0) ?? '?'} µs plane CPU per op` },
    plane.durableOpsPerSecond,
    5000,
    '≥ 5,000 ops/s',
    true,
  );
  report.target(
    { section: t, figure: `plane vs better baseline (${best.system}) throughput, ${AGENTS} agent processes`, value: times(plane.durableOpsPerSecond / best.durableOpsPerSecond), reference: `${count(best.durableOpsPerSecond)} ops/s` },
    plane.durableOpsPerSecond / best.durableOpsPerSecond,
    3,
    '≥ 3×',
    true,
  );
  // The target names 32 connections; one process per agent is the stricter reading, judged above.
  // Here the better of SQLite's two packagings counts, so the plane gets no packaging advantage.
  const planeFew = results.find((f) => f.system === 'plane' && f.processes < f.agents);
  const sqliteFew = results.find((f) => f.system === 'sqlite' && f.processes < f.agents);
  if (planeFew && sqliteFew) {
    const bestFew = sqliteFew.durableOpsPerSecond > sqlite.durableOpsPerSecond ? sqliteFew : sqlite;
    report.target(
      {
        section: t,
        figure: `plane vs better baseline throughput, ${AGENTS} connections from ${planeFew.processes} processes`,
        value: times(planeFew.durableOpsPerSecond / bestFew.durableOpsPerSecond),
        reference: `${count(planeFew.durableOpsPerSecond)} vs ${count(bestFew.durableOpsPerSecond)} ops/s (SQLite: ${count(sqliteFew.durableOpsPerSecond)} from ${sqliteFew.processes} processes, ${count(sqlite.durableOpsPerSecond)} from ${sqlite.processes}; the better counts)`,
      },
      planeFew.durableOpsPerSecond / bestFew.durableOpsPerSecond,
      3,
      '≥ 3×',
      true,
    );
  }
  if (echo) {
    report.add({
      section: t,
      figure: `what ${AGENTS} agent processes allow: 3× the better baseline vs the echo floor`,
      value: `${count(3 * best.durableOpsPerSecond)} ops/s`,
      reference: `the same processes reach ${count(echo.durableOpsPerSecond)} round trips/s against a bare echo`,
      ratio: times((3 * best.durableOpsPerSecond) / echo.durableOpsPerSecond),
    });
  }
  report.target(
    { section: t, figure: `plane op p99 vs better baseline's (${best.system})`, value: us(plane.opLatency.p99), reference: `½ × ${us(best.opLatency.p99)} = ${us(best.opLatency.p99 / 2)}`, ratio: times(plane.opLatency.p99 / best.opLatency.p99) },
    plane.opLatency.p99,
    best.opLatency.p99 / 2,
    '≤ ½ its p99',
  );
  report.add({
    section: t,
    figure: `the same at equal offered load (${count(planePaced.durableOpsPerSecond)} vs ${count(sqlitePaced.durableOpsPerSecond)} ops/s): plane op p99 vs SQLite's`,
    value: us(planePaced.opLatency.p99),
    reference: `SQLite ${us(sqlitePaced.opLatency.p99)}; p50 ${us(planePaced.opLatency.p50)} vs ${us(sqlitePaced.opLatency.p50)}; not the target's reading, which is at saturation`,
    ratio: times(planePaced.opLatency.p99 / sqlitePaced.opLatency.p99),
  });
  report.target(
    { section: t, figure: 'group commit: plane fsyncs per durable op', value: (1 / plane.durableOpsPerFsync).toFixed(3), reference: `${count(plane.fsyncsPerSecond)} fsyncs/s for ${count(plane.durableOpsPerSecond)} ops/s` },
    1 / plane.durableOpsPerFsync,
    0.5,
    'far fewer fsyncs than ops (≤ 0.5)',
  );
}
