import type { SystemConfig } from './claim-system.js';

/** Driver → agent process. Times are process.hrtime.bigint() readings as decimal strings. */
export type ToAgent =
  | { type: 'setup'; configs: SystemConfig[] }
  /** With `cyclesPerSecond`, each agent starts a cycle every 1/cyclesPerSecond s (its offered load) instead of at once. */
  | { type: 'go'; warmFrom: string; start: string; until: string; cyclesPerSecond?: number }
  | { type: 'teardown' }
  | { type: 'exit' };

/** One granted claim as the agent saw it: from the grant's arrival to just before its release left. */
export type Hold = [path: string, from: number, to: number, agent: number];

export interface AgentReport {
  /** Claim requests answered inside the window, and how they went. */
  claims: number;
  granted: number;
  refused: number;
  /** Releases answered inside the window. */
  releases: number;
  /** Every durable operation this agent saw acknowledged, including those just after the window. */
  durableTotal: number;
  errors: string[];
  /** Microseconds. */
  claimLatency: number[];
  releaseLatency: number[];
  /** Microseconds since the window's start, on the machine-wide monotonic clock. */
  holds: Hold[];
  fsyncs: number;
  /** CPU this agent process used during the window (user + system), microseconds. */
  cpuMicros: number;
}

export type FromAgent = { type: 'ready' } | { type: 'done'; report: AgentReport } | { type: 'closed' } | { type: 'failed'; error: string };
