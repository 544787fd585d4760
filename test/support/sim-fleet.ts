// Simulated agents for the two-runtime fleet test: each is a real WebSocket connection to a real
// plane, joined under its own callsign and subscribed to the event stream, so it knows how far the
// log had got when it sent each call and when each answer came back.
import type { Role, Tier } from '../../contracts/index.js';
import type { PlaneClient } from '../../server/client/plane-client.js';
import type { PlaneProcess } from './plane-process.js';
import type { EmptyPull } from './sim-replay.js';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Waiter {
  afterSeq: number;
  resolve(): void;
}

/** A joined connection that tracks the highest event seq pushed to it. */
export class SimAgent {
  lastSeq = 0;
  agentId = '';
  private waiters: Waiter[] = [];
  private readonly onEventHandlers: ((event: { seq: number; type: string; [key: string]: unknown }) => void)[] = [];

  private constructor(
    readonly client: PlaneClient,
    readonly callsign: string,
  ) {
    client.onNotification((method, params) => {
      if (method !== 'fleet_event') return;
      const event = (params as { event: { seq: number; type: string } }).event;
      if (event.seq > this.lastSeq) this.lastSeq = event.seq;
      for (const handler of this.onEventHandlers) handler(event);
      if (this.waiters.length > 0) {
        const ready = this.waiters.filter((w) => this.lastSeq > w.afterSeq);
        this.waiters = this.waiters.filter((w) => this.lastSeq <= w.afterSeq);
        for (const w of ready) w.resolve();
      }
    });
  }

  /** Connects, joins (unless `operator`), then subscribes to the event stream. */
  static async start(plane: PlaneProcess, callsign: string, join?: { role: Role; runtime: string; tier?: Tier }): Promise<SimAgent> {
    const client = await plane.connect(callsign);
    const agent = new SimAgent(client, callsign);
    if (join) {
      const joined = await client.call('fleet_agent_join', { callsign, runtime: join.runtime, role: join.role, ...(join.tier && { tier: join.tier }) });
      agent.agentId = joined.agentId;
    }
    const { seq } = await client.call('fleet_events_subscribe', {});
    agent.lastSeq = Math.max(agent.lastSeq, seq);
    return agent;
  }

  onEvent(handler: (event: { seq: number; type: string; [key: string]: unknown }) => void): void {
    this.onEventHandlers.push(handler);
  }

  /** Resolves once an event after `afterSeq` has arrived, or after `timeoutMs`. */
  waitForEventAfter(afterSeq: number, timeoutMs: number): Promise<void> {
    if (this.lastSeq > afterSeq) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve();
      }, timeoutMs);
      const waiter: Waiter = {
        afterSeq,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiters.push(waiter);
    });
  }

  close(): void {
    this.client.close();
  }
}

export interface BuilderStats {
  callsign: string;
  group: 'fast' | 'slow';
  pulls: number;
  emptyPulls: number;
  completed: number;
  /** Time spent waiting for something to change after an empty pull. */
  idleMs: number;
}

export interface FleetClock {
  readonly t0: number;
  done(): boolean;
  deadline: number;
}

/** Pulls, "works" for `workMs()`, completes; after an empty pull, waits for the log to move. */
export async function runBuilder(agent: SimAgent, group: 'fast' | 'slow', workMs: () => number, fleet: FleetClock, emptyPulls: EmptyPull[]): Promise<BuilderStats> {
  const stats: BuilderStats = { callsign: agent.callsign, group, pulls: 0, emptyPulls: 0, completed: 0, idleMs: 0 };
  while (!fleet.done() && Date.now() < fleet.deadline) {
    const lowSeq = agent.lastSeq;
    const pulled = await agent.client.call('fleet_work_pull', {});
    const highSeq = agent.lastSeq;
    stats.pulls++;
    if (pulled.item) {
      const delay = workMs();
      if (delay > 0) await sleep(delay);
      await agent.client.call('fleet_work_update', {
        id: pulled.item.id,
        action: 'complete',
        artifact: {
          touchedFiles: pulled.claims.map((c) => c.pattern),
          commands: [{ command: 'npm test', exitCode: 0 }],
          criteria: pulled.item.criteria,
        },
      });
      stats.completed++;
      continue;
    }
    stats.emptyPulls++;
    emptyPulls.push({ agentId: agent.agentId, callsign: agent.callsign, lowSeq, highSeq, atMs: Date.now() - fleet.t0 });
    // Something happened while the pull was in flight: look again at once. Otherwise wait for the
    // next event (the safety timeout only matters if the stream stalls).
    if (highSeq > lowSeq) continue;
    const idleFrom = Date.now();
    await agent.waitForEventAfter(highSeq, 200);
    stats.idleMs += Date.now() - idleFrom;
  }
  return stats;
}

export interface VerifierStats {
  callsign: string;
  verified: number;
  failed: number;
}

/** Pulls review items and reports verdicts: a pass on every criterion, or (by `fails`) one fail. */
export async function runVerifier(agent: SimAgent, fails: (itemId: string) => boolean, fleet: FleetClock): Promise<VerifierStats> {
  const stats: VerifierStats = { callsign: agent.callsign, verified: 0, failed: 0 };
  while (!fleet.done() && Date.now() < fleet.deadline) {
    const lowSeq = agent.lastSeq;
    const pulled = await agent.client.call('fleet_work_pull', {});
    if (!pulled.item) {
      if (agent.lastSeq === lowSeq) await agent.waitForEventAfter(agent.lastSeq, 200);
      continue;
    }
    const fail = fails(pulled.item.id);
    const criteria = pulled.item.criteria.length > 0 ? pulled.item.criteria : ['works'];
    await agent.client.call('fleet_work_update', {
      id: pulled.item.id,
      action: 'verify',
      report: {
        verdicts: criteria.map((criterion, i) => ({ criterion, verdict: fail && i === 0 ? ('fail' as const) : ('pass' as const), evidence: `ran the suite for ${criterion}` })),
      },
    });
    if (fail) stats.failed++;
    else stats.verified++;
  }
  return stats;
}

/** Accepts every verified item, woken by each new event. */
export async function runRte(agent: SimAgent, fleet: FleetClock): Promise<{ accepted: number }> {
  let accepted = 0;
  while (!fleet.done() && Date.now() < fleet.deadline) {
    const seen = agent.lastSeq;
    const { items } = await agent.client.call('fleet_work_list', { status: 'verified' });
    for (const item of items) {
      await agent.client.call('fleet_work_update', { id: item.id, action: 'decide', decision: { disposition: 'accept', reasonCode: 'verified-pass', refs: item.report?.artifactId !== undefined ? [item.report.artifactId] : [] } });
      accepted++;
    }
    if (items.length === 0) await agent.waitForEventAfter(seen, 200);
  }
  return { accepted };
}
