import type { FleetEvent } from '../../../contracts/index.js';
import type { FleetCore } from '../../core/fleet-core.js';
import type { AgentRecord } from '../../core/state.js';
import { processStartTime } from './process-identity.js';

/** Time between SIGTERM and SIGKILL for an agent that ignores the stop. */
const KILL_AFTER_MS = 5_000;

/**
 * `stop`'s hard backstop: when the switch has stayed on stop for the grace period, agents that
 * registered a pid and are still on the roster get SIGTERM, then SIGKILL. A pid is signalled only
 * while it is still the process registered at join (same start time, so a pid without a recorded
 * start time never is), and never pid 1 or the plane itself.
 */
export class StopBackstop {
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly core: FleetCore,
    private readonly graceRealMs: number,
    private readonly log: (message: string) => void,
  ) {}

  /** Arms or disarms on every durable control change; call once at start with the loaded state. */
  observe(events: readonly FleetEvent[]): void {
    for (const event of events) {
      if (event.type !== 'control.set') continue;
      if (event.state === 'stop') this.arm();
      else this.disarm();
    }
  }

  arm(): void {
    this.disarm();
    this.later(this.graceRealMs, () => {
      this.signalAll('SIGTERM');
      this.later(KILL_AFTER_MS, () => this.signalAll('SIGKILL'));
    });
  }

  disarm(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
  }

  private later(ms: number, action: () => void): void {
    const timer = setTimeout(action, ms);
    timer.unref();
    this.timers.push(timer);
  }

  private signalAll(signal: 'SIGTERM' | 'SIGKILL'): void {
    if (this.core.state.control.state !== 'stop') return;
    this.core.run(undefined, (ctx) => {
      for (const agent of ctx.state.agents.values()) {
        const pid = signallablePid(agent);
        if (pid === undefined) continue;
        try {
          process.kill(pid, signal);
          ctx.emit({ type: 'agent.terminated', by: 'plane', agentId: agent.agentId, pid, signal });
        } catch (error) {
          this.log(`stop backstop: could not send ${signal} to ${agent.callsign} (pid ${agent.pid}): ${(error as Error).message}`);
        }
      }
    });
  }
}

/**
 * The pid the backstop may signal for an agent still on the roster: only the very process
 * registered at join (its start time recorded then and matching now), never pid 1, never the plane.
 */
export function signallablePid(agent: AgentRecord, planePid = process.pid): number | undefined {
  const { pid, pidStart } = agent;
  if (agent.gone || pid === undefined || pidStart === undefined || pid <= 1 || pid === planePid) return undefined;
  return processStartTime(pid) === pidStart ? pid : undefined;
}
