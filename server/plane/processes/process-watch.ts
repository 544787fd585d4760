import type { FleetCore } from '../../core/fleet-core.js';
import { hasRegisteredProcess } from '../../core/liveness.js';
import { processExited } from '../../core/roster.js';
import { probeProcess } from './process-identity.js';

/**
 * Watches the processes agents registered at join (DESIGN §11, liveness beats TTL): reading
 * /proc/<pid>/stat is cheap enough to do for every live agent every second, and it answers
 * within the 5 s the design promises. What it sees enters the core as a command whose events say
 * so, so a replay of the log never asks /proc anything.
 */
export class ProcessWatch {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly core: FleetCore,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.look();
    this.timer = setInterval(() => this.look(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One pass: agents whose process is gone (or whose pid now names another process) end. */
  look(): void {
    const ended: { agentId: string; pid: number; pidStart: string }[] = [];
    for (const agent of this.core.state.agents.values()) {
      if (agent.gone || !hasRegisteredProcess(agent)) continue;
      const probe = probeProcess(agent.pid);
      // Unreadable (out of descriptors…) decides nothing: the next pass looks again.
      if (probe.kind === 'gone' || (probe.kind === 'running' && probe.start !== agent.pidStart)) {
        ended.push({ agentId: agent.agentId, pid: agent.pid, pidStart: agent.pidStart });
      }
    }
    if (ended.length === 0) return;
    this.core.run(undefined, (ctx) => {
      for (const { agentId, pid, pidStart } of ended) processExited(ctx, agentId, pid, pidStart);
    });
  }
}
