import type { FleetEvent, FleetEventInput, Role } from '../../contracts/index.js';
import type { IdSource } from './clock.js';
import type { Indexes } from './indexes.js';
import type { State } from './state.js';

export interface CoreConfig {
  agentTtlMs: number;
  /** The agent TTL of tier `edge` (FLEET_EDGE_TTL): remote agents heartbeat across a WAN. Unset: agentTtlMs. */
  edgeTtlMs?: number;
  /** Default TTL of a lease acquired without ttlSeconds. */
  leaseTtlMs: number;
  /**
   * A gap longer than this between two runs of the core means the plane stood still (the plane
   * sweeps far more often): the gap is then recorded as a stall, which no one's silence includes.
   * Unset (tests driving a fake clock) means time jumps are real time passing.
   */
  stallThresholdMs?: number;
  /** On a shared log: this plane's id, named in the liveness it logs (its agents' silence is judged with its own). */
  planeId?: string;
  /** On a shared log (FLEET_PLANE_DEATH_TTL): how long an agent whose plane went silent is held before it expires. Unset: not held. */
  planeDeathTtlMs?: number;
}

/**
 * What a connection proved when it opened: the plane token every agent, hook and bridge uses, the
 * operator's own credential, which only the person's tools present (DESIGN §3, §11), or a remote
 * agent's service token, which acts only as its one callsign and role (DESIGN §13).
 */
export type Credential = 'plane' | 'operator' | ServiceCredential;

/** A service token presented on the TLS listener: who it lets the connection be, and nobody else. */
export interface ServiceCredential {
  kind: 'service';
  tokenId: string;
  callsign: string;
  role: Exclude<Role, 'operator'>;
}

/**
 * Who is calling: a joined agent; the person at the terminal or in the editor (the operator
 * credential); or a connection that holds only the plane token and has not joined (it may read,
 * check, pull the brake and join, never act as the operator).
 */
export type Caller = { kind: 'agent'; agentId: string } | { kind: 'operator'; name: string } | { kind: 'unjoined' };

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
