import type { FleetEvent, FleetEventInput } from '../../contracts/index.js';
import { ClaimQueue } from './claim-queue.js';
import { copyWith } from './copy-with.js';
import type { Clock, IdSource } from './clock.js';
import type { Caller, CoreConfig, Ctx, Deadline } from './context.js';
import { Indexes } from './indexes.js';
import { sweepHandoff } from './handoffs.js';
import { sweepLease } from './leases.js';
import { MinHeap } from './min-heap.js';
import { agentTtlOf } from './liveness.js';
import { applyEvent } from './reducer.js';
import { sweepAgent, touch } from './roster.js';
import { deadlineOfAdopted } from './adopted-deadlines.js';
import { fromPersisted, emptyState, type PersistedState, type State } from './state.js';
import { compileRecordedPattern } from './patterns.js';
import { migrateScopes, type ScopeRename } from './scope-merge.js';
import { prepareClaim, sweepClaim } from './territory.js';

/** How long a parked claim waits at most in one run of the plane; it is queued again at the next start. */
const PARKED_WAIT_MS = 30 * 24 * 3600 * 1000;

/**
 * The pure domain core: state, indexes and deadlines, driven one command at a time. It never
 * touches a disk or a socket: events go to listeners (the journal), time comes from the clock.
 */
export class FleetCore {
  // Replaced only by `reset` (a replicated store dropping changes another plane's order overtook).
  private current: { state: State; indexes: Indexes };
  readonly queue = new ClaimQueue();
  private deadlines = new MinHeap<Deadline>();
  private readonly listeners: ((event: FleetEvent) => void)[] = [];
  private lastRunAt: number | undefined;
  /** Parked claims (scope-merge.ts) that have a waiter in the queue now. */
  private readonly queuedParked = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly ids: IdSource,
    readonly config: CoreConfig,
    restored?: { snapshot: PersistedState | null; tail: readonly FleetEvent[] },
  ) {
    const state = restored?.snapshot ? fromPersisted(restored.snapshot) : emptyState(clock.now());
    this.current = { state, indexes: Indexes.build(state) };
    for (const event of restored?.tail ?? []) applyEvent(this.state, this.indexes, event, config);
    this.scheduleEverything();
  }

  /** The time as the core stamps its events (a claim's grantedAt): for comparing what the plane saw with them. */
  now(): number {
    return this.clock.now();
  }

  /**
   * Renames scopes (an older plane's ids to portable ones) and queues the claims the merge parked.
   * Call before the plane serves anyone, after the journal listens, so the rename is logged.
   */
  migrateScopes(renames: readonly ScopeRename[]): void {
    this.run(undefined, (ctx) => migrateScopes(ctx, renames));
    this.queueParked();
  }

  /** Parked claims wait in the claim queue; the queue lives in memory, so each start queues them again. */
  queueParked(): void {
    this.run(undefined, (ctx) => {
      for (const parked of this.state.parkedClaims.values()) {
        if (this.queuedParked.has(parked.id)) continue;
        this.queuedParked.add(parked.id);
        const { agentId, scope, pattern, mode, ttlMs, reason } = parked;
        const request = prepareClaim(agentId, { scope, patterns: [pattern], mode, ...(ttlMs !== undefined && { ttlSeconds: ttlMs / 1000 }), ...(reason !== undefined && { reason }) }, compileRecordedPattern);
        this.queue.enqueue(ctx, request, PARKED_WAIT_MS, [], (outcome) => this.unpark(parked.id, agentId, outcome.granted));
      }
    });
  }

  /** A parked claim left the queue: granted (the grant is already recorded), or its agent is gone; else (shutdown) it stays parked. */
  private unpark(claimId: string, agentId: string, granted: boolean): void {
    this.queuedParked.delete(claimId);
    const agent = this.state.agents.get(agentId);
    if (granted || !agent || agent.gone) this.emit({ type: 'claim.unparked', by: 'plane', claimId, granted }, this.clock.now());
  }

  get state(): State {
    return this.current.state;
  }

  get indexes(): Indexes {
    return this.current.indexes;
  }

  /**
   * Applies events another plane decided (already sequenced in the shared log), as a replay
   * would: listeners do not hear them (they are not this plane's to log), deadlines they create
   * are armed.
   */
  adopt(events: readonly FleetEvent[]): void {
    for (const event of events) {
      applyEvent(this.state, this.indexes, event, this.config);
      const due = deadlineOfAdopted(event);
      if (due) this.deadlines.push(due.at, due.deadline);
    }
  }

  /**
   * Replaces the state with `snapshot` (a replica of the shared log's order), dropping every change
   * decided here that the order has not taken. Deadlines are re-armed; waiting claims keep theirs.
   */
  reset(snapshot: PersistedState): void {
    const state = fromPersisted(snapshot);
    this.current = { state, indexes: Indexes.build(state) };
    this.queue.stateReplaced();
    const old = this.deadlines;
    this.deadlines = new MinHeap<Deadline>();
    for (let key = old.peekKey(); key !== undefined; key = old.peekKey()) {
      const deadline = old.pop()!;
      if (deadline.kind === 'waiter') this.deadlines.push(key, deadline);
    }
    this.scheduleEverything();
  }

  onEvent(listener: (event: FleetEvent) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Runs one command at the current time: due deadlines are swept first so the command never sees
   * a lapsed claim, then the command, then any waiting claims that its releases made grantable.
   */
  run<T>(caller: Caller | undefined, command: (ctx: Ctx) => T): T {
    const ctx = this.context();
    this.noticeStall(ctx.now);
    this.sweepDue(ctx);
    if (caller) touch(ctx, caller);
    try {
      return command(ctx);
    } finally {
      // Anything may have freed territory or ended a wait: a release, a resume, a timeout, a leave.
      this.retryWaiters(ctx);
    }
  }

  /**
   * Records a plane start before anything is swept: the plane was down, not the agents, so live
   * agents, claims and leases get their grace (see the reducer) before any deadline is judged.
   */
  announceStart(pid: number, version: string): void {
    this.emit({ type: 'plane.started', by: 'plane', pid, version }, this.clock.now());
    this.queueParked();
  }

  /** Expires what is due now; the plane calls it on a timer so nothing waits for the next command. */
  sweep(): void {
    this.run(undefined, () => undefined);
  }

  nextDeadline(): number | undefined {
    return this.deadlines.peekKey();
  }

  private context(): Ctx {
    const now = this.clock.now();
    return {
      state: this.state,
      indexes: this.indexes,
      config: this.config,
      ids: this.ids,
      now,
      emit: (input) => this.emit(input, now),
      schedule: (at, deadline) => this.deadlines.push(at, deadline),
    };
  }

  private emit(input: FleetEventInput, now: number): FleetEvent {
    const event = copyWith(input, { seq: this.state.seq + 1, at: now }) as FleetEvent;
    applyEvent(this.state, this.indexes, event, this.config);
    for (const listener of this.listeners) listener(event);
    return event;
  }

  /**
   * The plane runs the core at least every sweep interval, so a longer gap is a stall (GC, disk,
   * a stopped process): heartbeats may be waiting in its sockets right now, behind this very
   * command. Recording the stall first means the sweep below does not count it as silence.
   */
  private noticeStall(now: number): void {
    const threshold = this.config.stallThresholdMs;
    if (threshold !== undefined && this.lastRunAt !== undefined && now - this.lastRunAt > threshold) {
      this.emit({ type: 'plane.stalled', by: 'plane', from: this.lastRunAt }, now);
    }
    this.lastRunAt = now;
  }

  private sweepDue(ctx: Ctx): void {
    for (let key = this.deadlines.peekKey(); key !== undefined && key <= ctx.now; key = this.deadlines.peekKey()) {
      const due = this.deadlines.pop()!;
      switch (due.kind) {
        case 'agent':
          sweepAgent(ctx, due.agentId);
          break;
        case 'claim':
          sweepClaim(ctx, due.claimId);
          break;
        case 'lease':
          sweepLease(ctx, due.name);
          break;
        case 'waiter':
          this.queue.expire(ctx, due.waiterId);
          break;
        case 'handoff':
          sweepHandoff(ctx, due.handoffId);
          break;
      }
    }
    this.retryWaiters(ctx);
  }

  private retryWaiters(ctx: Ctx): void {
    if (this.queue.size > 0) this.queue.retry(ctx);
  }

  /** After a load every agent, TTL claim and lease gets its deadline back. */
  private scheduleEverything(): void {
    for (const agent of this.state.agents.values()) {
      // A gone agent's deadline is its pruning; sweepAgent reschedules it to the right time.
      this.deadlines.push(agent.gone ? (agent.goneAt ?? agent.lastSeen) : agent.lastSeen + agentTtlOf(agent, this.config), { kind: 'agent', agentId: agent.agentId });
    }
    for (const claim of this.state.claims.values()) {
      if (claim.expiresAt !== undefined) this.deadlines.push(claim.expiresAt, { kind: 'claim', claimId: claim.id });
    }
    for (const lease of this.state.leases.values()) this.deadlines.push(lease.expiresAt, { kind: 'lease', name: lease.name });
    for (const handoff of this.state.handoffs.values()) {
      if (handoff.status === 'pending') this.deadlines.push(handoff.expiresAt, { kind: 'handoff', handoffId: handoff.id });
    }
  }
}
