import type { FleetEvent, FleetEventInput } from '../../contracts/index.js';
import type { IdSource } from './clock.js';
import type { Indexes } from './indexes.js';
import type { State } from './state.js';

export interface CoreConfig {
  agentTtlMs: number;
  /** Default TTL of a lease acquired without ttlSeconds. */
  leaseTtlMs: number;
  /**
   * A gap longer than this between two runs of the core means the plane stood still (the plane
   * sweeps far more often): the gap is then recorded as a stall, which no one's silence includes.
   * Unset (tests driving a fake clock) means time jumps are real time passing.
   */
  stallThresholdMs?: number;
}

/** Who is calling: a joined agent, or the local person holding the plane token. */
export type Caller = { kind: 'agent'; agentId: string } | { kind: 'operator'; name: string };

/** Something that may become due later; the sweeper re-checks it when its time comes. */
export type Deadline =
  | { kind: 'agent'; agentId: string }
  | { kind: 'claim'; claimId: string }
  | { kind: 'lease'; name: string }
  | { kind: 'waiter'; waiterId: string }
  | { kind: 'handoff'; handoffId: string };

/** What a handler sees: the state, the time of the call, and the only way to change things. */
export interface Ctx {
  readonly state: State;
  readonly indexes: Indexes;
  readonly config: CoreConfig;
  readonly ids: IdSource;
  readonly now: number;
  emit(event: FleetEventInput): FleetEvent;
  schedule(at: number, deadline: Deadline): void;
}
