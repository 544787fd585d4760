// Child-process entry: one agent of the throughput harness. The driver tells it which system to
// use (the plane or a baseline), starts every agent at the same instant and stops them at the same
// deadline; the agent claims and releases files in a loop and reports what it saw.
import { seededRandom } from '../lib/stats.js';
import { cyclePaths, isShared, SHARED_HOLD_MS } from '../lib/workload.js';
import type { ClaimSystem, SystemConfig } from './claim-system.js';
import { EchoAgent } from './echo-agent.js';
import { LedgerAgent } from './ledger-agent.js';
import { PlaneAgent } from './plane-agent.js';
import type { AgentReport, FromAgent, Hold, ToAgent } from './protocol.js';
import { SqliteAgent } from './sqlite-agent.js';

interface Agent {
  index: number;
  system: ClaimSystem;
  nextPath: () => string;
}

// Usually one agent per process; the 4-process variants (plane, SQLite) run several per process.
let agents: Agent[] = [];

const send = (message: FromAgent) => process.send?.(message);
const now = () => process.hrtime.bigint();

async function open(config: SystemConfig): Promise<ClaimSystem> {
  const callsign = `agent-${String(config.index).padStart(2, '0')}`;
  switch (config.system) {
    case 'plane':
      return PlaneAgent.open(config.address!, config.token!, config.root!, callsign);
    case 'echo':
      return EchoAgent.open(config.address!, config.root!);
    case 'sqlite':
      return new SqliteAgent(config.path!, callsign);
    case 'ledger':
      return new LedgerAgent(config.path!, callsign);
    case 'ledger-unlocked':
      return new LedgerAgent(config.path!, callsign, false);
  }
}

const sleepUntil = async (t: bigint) => {
  const wait = Number(t - now()) / 1e6;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
};

/** Loops from `warmFrom` (warming up the JIT on both sides) but counts only from `start`. */
async function run(warmFrom: bigint, start: bigint, until: bigint, cyclesPerSecond: number | undefined): Promise<AgentReport> {
  const report: AgentReport = { claims: 0, granted: 0, refused: 0, releases: 0, durableTotal: 0, errors: [], claimLatency: [], releaseLatency: [], holds: [], fsyncs: 0, cpuMicros: 0 };
  await sleepUntil(warmFrom);
  // Taken by the first operation sent in the window (a synchronous baseline never yields to a timer).
  const mark = { taken: false, fsyncs: 0, cpu: process.cpuUsage() };
  const markStart = () => {
    if (mark.taken || now() < start) return;
    mark.taken = true;
    mark.fsyncs = agents.reduce((sum, agent) => sum + agent.system.fsyncs, 0);
    mark.cpu = process.cpuUsage();
  };
  await Promise.all(agents.map((agent) => loop(agent, pacing(agent.index, warmFrom, cyclesPerSecond), start, until, report, markStart)));
  const fsyncsBefore = mark.fsyncs;
  const cpu = mark.cpu;
  report.fsyncs = agents.reduce((sum, agent) => sum + agent.system.fsyncs, 0) - fsyncsBefore;
  const used = process.cpuUsage(cpu);
  report.cpuMicros = used.user + used.system;
  return report;
}

/**
 * Waits for the agent's next cycle when the load is paced: cycles every 1/cyclesPerSecond s, the
 * agents' phases spread over the period so they do not all arrive at once. Unpaced: no wait.
 */
function pacing(index: number, from: bigint, cyclesPerSecond: number | undefined): () => Promise<void> {
  if (!cyclesPerSecond) return () => Promise.resolve();
  const period = 1e9 / cyclesPerSecond;
  const phase = (index * 0.618034) % 1; // golden-ratio steps spread any number of agents evenly
  let next = from + BigInt(Math.round(phase * period));
  return async () => {
    await sleepUntil(next);
    next += BigInt(Math.round(period));
  };
}

async function loop({ index, system, nextPath }: Agent, nextCycle: () => Promise<void>, start: bigint, until: bigint, report: AgentReport, markStart: () => void): Promise<void> {
  const rel = (t: bigint) => Number(t - start) / 1000;
  // Synchronous agents sharing a process would hand the turn only to each other (an await of a
  // plain value yields to microtasks alone), so a hold's 2 ms timer could fire only once all of
  // them were holding: they yield to the event loop once a cycle.
  const yieldEachCycle = system.synchronous === true && agents.length > 1;
  while (now() < until) {
    if (yieldEachCycle) await new Promise((resolve) => setImmediate(resolve));
    await nextCycle();
    if (now() >= until) break;
    markStart();
    const path = nextPath();
    const sent = now();
    let grant;
    try {
      grant = await system.claim(path);
    } catch (error) {
      report.errors.push(`claim ${path}: ${(error as Error).message}`);
      if (report.errors.length > 20) break;
      continue;
    }
    const answered = now();
    const inWindow = sent >= start && answered <= until;
    if (inWindow) {
      report.claims++;
      report.claimLatency.push(Number(answered - sent) / 1000);
    }
    if (!grant.granted) {
      if (inWindow) report.refused++;
      continue;
    }
    if (sent >= start) report.durableTotal++;
    if (inWindow) report.granted++;
    if (isShared(path)) await new Promise((resolve) => setTimeout(resolve, SHARED_HOLD_MS));
    const releasing = now();
    try {
      await system.release(grant.id!);
    } catch (error) {
      report.errors.push(`release ${path}: ${(error as Error).message}`);
      break;
    }
    const released = now();
    report.holds.push([path, rel(answered), rel(releasing), index] satisfies Hold);
    if (releasing >= start) report.durableTotal++;
    if (releasing >= start && released <= until) {
      report.releases++;
      report.releaseLatency.push(Number(released - releasing) / 1000);
    }
  }
}

process.once('disconnect', () => process.exit(0));

process.on('message', (message: ToAgent) => {
  void (async () => {
    try {
      switch (message.type) {
        case 'setup':
          agents = await Promise.all(
            message.configs.map(async (config) => ({ index: config.index, system: await open(config), nextPath: cyclePaths(config.index, seededRandom(1000 + config.index), config.overlapShare) })),
          );
          send({ type: 'ready' });
          break;
        case 'go':
          send({ type: 'done', report: await run(BigInt(message.warmFrom), BigInt(message.start), BigInt(message.until), message.cyclesPerSecond) });
          break;
        case 'teardown':
          await Promise.all(agents.map(async (agent) => agent.system.close()));
          agents = [];
          send({ type: 'closed' });
          break;
        case 'exit':
          process.exit(0);
      }
    } catch (error) {
      send({ type: 'failed', error: (error as Error).stack ?? String(error) });
    }
  })();
});
