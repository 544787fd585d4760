import assert from 'node:assert/strict';
import { FleetError, type ErrorName, type FleetEvent, type FleetEventType } from '../../contracts/index.js';
import { claim } from '../../server/core/claim.js';
import type { ClaimOutcome } from '../../server/core/claim-queue.js';
import type { Clock, IdSource } from '../../server/core/clock.js';
import type { Caller, CoreConfig, Ctx } from '../../server/core/context.js';
import { FleetCore } from '../../server/core/fleet-core.js';
import { join, type JoinRequest } from '../../server/core/roster.js';
import type { PersistedState } from '../../server/core/state.js';
import type { ClaimRequest } from '../../server/core/territory.js';
export { seededRandom } from '../../server/core/seeded-random.js';

/** A clock that moves only when the test says so. */
export class FakeClock implements Clock {
  constructor(public t: number = Date.UTC(2025, 0, 1, 9, 0, 0)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** Ids and tokens from counters, so two runs of one script produce the same state. */
export class CounterIds implements IdSource {
  private next = 0;
  id(prefix: string): string {
    return `${prefix}-${++this.next}`;
  }
  token(): string {
    return `token-${++this.next}`;
  }
}

export const TTL_MS = 120_000;
export const LEASE_TTL_MS = 60_000;
export const SCOPE = '/repo/.git';
export const OTHER_SCOPE = '/other/.git';
export const OPERATOR: Caller = { kind: 'operator', name: 'dana' };

export interface Harness {
  core: FleetCore;
  clock: FakeClock;
  ids: CounterIds;
  config: CoreConfig;
  /** Every event the core has emitted, in order. */
  events: FleetEvent[];
}

export function makeHarness(config: Partial<CoreConfig> = {}, clock = new FakeClock(), ids = new CounterIds()): Harness {
  const full: CoreConfig = { agentTtlMs: TTL_MS, leaseTtlMs: LEASE_TTL_MS, ...config };
  const core = new FleetCore(clock, ids, full);
  const events: FleetEvent[] = [];
  core.onEvent((event) => events.push(event));
  return { core, clock, ids, config: full, events };
}

/** A new core restored from a snapshot and/or a tail of events, recording its own events. */
export function restoreHarness(
  from: { snapshot: PersistedState | null; tail: readonly FleetEvent[] },
  config: Partial<CoreConfig> = {},
  clock = new FakeClock(),
  ids = new CounterIds(),
): Harness {
  const full: CoreConfig = { agentTtlMs: TTL_MS, leaseTtlMs: LEASE_TTL_MS, ...config };
  const core = new FleetCore(clock, ids, full, { snapshot: from.snapshot && structuredClone(from.snapshot), tail: structuredClone([...from.tail]) });
  const events: FleetEvent[] = [];
  core.onEvent((event) => events.push(event));
  return { core, clock, ids, config: full, events };
}

export interface JoinedAgent {
  agentId: string;
  callsign: string;
  sessionToken: string;
  caller: Caller;
}

export function joinAgent(h: Harness, callsign: string, extra: Partial<JoinRequest> = {}): JoinedAgent {
  // An operator agent is the person's own: joined as the person's tools join it, with the operator credential.
  const out = h.core.run(undefined, (ctx) => join(ctx, { callsign, runtime: 'claude-code', ...extra }, extra.role === 'operator' ? 'operator' : 'plane'));
  return { agentId: out.agentId, callsign: out.callsign, sessionToken: out.sessionToken, caller: { kind: 'agent', agentId: out.agentId } };
}

/** A claim that must be answered at once (no waiting). */
export function claimNow(h: Harness, caller: Caller, req: Omit<ClaimRequest, 'scope'> & { scope?: string }): ClaimOutcome {
  const out = h.core.run(caller, (ctx) => claim(ctx, caller, { scope: SCOPE, ...req }, h.core.queue));
  assert.ok(!(out instanceof Promise), 'expected an immediate answer, got a waiting claim');
  return out;
}

/** A claim that is expected to wait (until `abandoned`, if given); returns its promise. */
export function claimWaiting(h: Harness, caller: Caller, req: Omit<ClaimRequest, 'scope'> & { scope?: string }, abandoned?: AbortSignal): Promise<ClaimOutcome> {
  const out = h.core.run(caller, (ctx) => claim(ctx, caller, { scope: SCOPE, ...req }, h.core.queue, abandoned));
  assert.ok(out instanceof Promise, `expected the claim to wait, got ${JSON.stringify(out)}`);
  return out;
}

/** Runs `command` as `caller` and returns what it returned together with the events it emitted. */
export function runRecording<T>(h: Harness, caller: Caller | undefined, command: (ctx: Ctx) => T): { result: T; emitted: FleetEvent[] } {
  const before = h.events.length;
  const result = h.core.run(caller, command);
  return { result, emitted: h.events.slice(before) };
}

/** Asserts that `fn` throws a FleetError named `name`, and returns it. */
export function expectFleetError(fn: () => unknown, name: ErrorName): FleetError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof FleetError, `expected FleetError ${name}, got ${caught === undefined ? 'no error' : String(caught)}`);
  assert.equal(caught.errorName, name, caught.message);
  return caught;
}

/** Runs `command` as `caller`, expecting FleetError `name`, and asserts it emitted no event. */
export function expectRefusedUnchanged(h: Harness, caller: Caller, name: ErrorName, command: (ctx: Ctx) => unknown): FleetError {
  const before = h.events.length;
  const error = expectFleetError(() => h.core.run(caller, command), name);
  assert.deepEqual(h.events.slice(before), [], 'a refused operation must emit nothing');
  return error;
}

export function eventsOfType<T extends FleetEventType>(events: readonly FleetEvent[], type: T): Extract<FleetEvent, { type: T }>[] {
  return events.filter((e): e is Extract<FleetEvent, { type: T }> => e.type === type);
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** Lets pending promise callbacks run. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
