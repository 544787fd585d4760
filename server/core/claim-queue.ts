import type { Ctx } from './context.js';
import { refusesNewClaims } from './control.js';
import { FleetError } from '../../contracts/index.js';
import { GlobBudget, overlapWithin, UNDECIDED } from './glob/index.js';
import { findConflicts, grant, tooMuchGlobWork, type Conflict, type GrantedClaim, type PreparedClaim } from './territory.js';
import { callsignOf, iso } from './views.js';
import { markDecidedLater } from './later-decision.js';
import type { State } from './state.js';

export interface ClaimOutcome {
  granted: boolean;
  refusedBy?: 'conflict' | 'control';
  claims: GrantedClaim[];
  conflicts: Conflict[];
}

interface Waiter {
  id: string;
  request: PreparedClaim;
  deadline: number;
  conflicts: Conflict[];
  resolve(outcome: ClaimOutcome): void;
  /** Stops listening for the asker leaving. */
  forget?(): void;
}

/**
 * Claims made with waitSeconds wait here, first come first served, and are granted as soon as
 * the territory they want is free, so agents never spin. A request queued earlier also blocks
 * later requests for the same territory, or a stream of small claims could starve it forever.
 * Waiters live in memory only: a waiting call ends with the plane that holds it, and with the
 * connection that asked. A grant nobody is left to receive would hold territory for an agent that
 * does not know it has it (and block everyone queued behind), so a closed connection withdraws its
 * waits, even when its agent lives on elsewhere: an agent that re-attaches asks again (with the
 * same requestId, a grant it did receive is returned instead).
 */
export class ClaimQueue {
  private readonly waiters = new Map<string, Waiter>();
  /** Bumped whenever a waiter leaves: the ones behind it may now be grantable. */
  private departures = 0;
  /** The state (event sequence, departures) the last retry saw: until it changes, a retry grants nothing. */
  private retriedAt = '';

  get size(): number {
    return this.waiters.size;
  }

  /** Queues `request` until it is granted, its wait runs out, or `abandoned` says its asker has gone. */
  enqueue(ctx: Ctx, request: PreparedClaim, waitMs: number, conflicts: Conflict[], resolve: (outcome: ClaimOutcome) => void, abandoned?: AbortSignal): void {
    if (abandoned?.aborted) {
      resolve(refused(conflicts));
      return;
    }
    const id = ctx.ids.id('wt');
    const deadline = ctx.now + waitMs;
    const waiter: Waiter = { id, request, deadline, conflicts, resolve };
    if (abandoned) {
      // The waiters behind it are looked at again on the plane's next run (its sweeper runs often).
      const withdraw = () => this.finish(waiter, refused(waiter.conflicts));
      abandoned.addEventListener('abort', withdraw, { once: true });
      waiter.forget = () => abandoned.removeEventListener('abort', withdraw);
    }
    this.waiters.set(id, waiter);
    ctx.schedule(deadline, { kind: 'waiter', waiterId: id });
  }

  /** Conflicts with other agents' requests queued ahead of `beforeId` (all of them if undefined), within `budget`. */
  conflictsWithQueued(ctx: Ctx, request: PreparedClaim, beforeId?: string, budget = request.budget): Conflict[] {
    const conflicts: Conflict[] = [];
    for (const waiter of this.waiters.values()) {
      if (waiter.id === beforeId) break;
      if (waiter.request.agentId === request.agentId || waiter.request.scope !== request.scope) continue;
      if (waiter.request.mode === 'shared' && request.mode === 'shared') continue;
      for (const mine of request.patterns) {
        for (const theirs of waiter.request.patterns) {
          // Both were held to the limits when they arrived, so only the request's budget can run out.
          const outcome = overlapWithin(mine, theirs, budget);
          if (outcome === UNDECIDED) throw tooMuchGlobWork(`claiming "${mine.source}"`, 'claim fewer patterns per request');
          if (outcome === undefined) continue;
          conflicts.push({
            pattern: mine.source,
            holder: callsignOf(ctx.state, waiter.request.agentId),
            heldPattern: theirs.source,
            mode: waiter.request.mode,
            expiresAt: iso(waiter.deadline),
          });
        }
      }
    }
    return conflicts;
  }

  /**
   * Grants, in arrival order, every waiter whose territory has become free. Only a recorded event
   * or a waiter leaving can free territory, so a retry after a read does nothing. One pass shares
   * one request's glob budget: a waiter it cannot pay for keeps waiting, as if still in conflict.
   */
  retry(ctx: Ctx): void {
    if (this.waiters.size === 0 || refusesNewClaims(ctx.state.control.state)) return;
    const at = `${ctx.state.seq}:${this.departures}`;
    if (at === this.retriedAt) return;
    this.retriedAt = at;
    const budget = GlobBudget.forRequest();
    for (const waiter of [...this.waiters.values()]) {
      const agent = ctx.state.agents.get(waiter.request.agentId);
      if (!agent || agent.gone) {
        this.finish(waiter, refused(waiter.conflicts));
        continue;
      }
      const conflicts = conflictsWithin(() => [...findConflicts(ctx, waiter.request, budget), ...this.conflictsWithQueued(ctx, waiter.request, waiter.id, budget)]);
      if (conflicts === undefined) continue;
      if (conflicts.length > 0) {
        waiter.conflicts = conflicts;
        continue;
      }
      const claims = grant(ctx, waiter.request);
      // Its call answers after this run: it waits for this seq, and a reset may drop the grant before.
      const kept = (state: State) => claims.every((c) => state.claims.get(c.id)?.fence === c.fence);
      this.finish(waiter, markDecidedLater({ granted: true, claims, conflicts: [] }, { state: ctx.state, seq: ctx.state.seq, kept }));
    }
  }

  /** The state was replaced (a reset): the same seq may now hold other territory, so the next retry looks again. */
  stateReplaced(): void {
    this.retriedAt = '';
  }

  /** Sweeper step: a waiter whose wait ran out is answered with the conflicts that kept it out. */
  expire(ctx: Ctx, waiterId: string): void {
    const waiter = this.waiters.get(waiterId);
    if (!waiter) return;
    if (ctx.now < waiter.deadline) {
      ctx.schedule(waiter.deadline, { kind: 'waiter', waiterId });
      return;
    }
    const refusedBy = refusesNewClaims(ctx.state.control.state) ? 'control' : 'conflict';
    this.finish(waiter, { granted: false, refusedBy, claims: [], conflicts: waiter.conflicts });
  }

  /** Ends every wait, e.g. when the plane shuts down. */
  abandonAll(): void {
    for (const waiter of [...this.waiters.values()]) this.finish(waiter, refused(waiter.conflicts));
  }

  private finish(waiter: Waiter, outcome: ClaimOutcome): void {
    if (!this.waiters.delete(waiter.id)) return; // already answered
    this.departures++;
    waiter.forget?.();
    waiter.resolve(outcome);
  }
}

const refused = (conflicts: Conflict[]): ClaimOutcome => ({ granted: false, refusedBy: 'conflict', claims: [], conflicts });

/** The conflicts `find` reports, or undefined when the budget ran out before it knew them. */
function conflictsWithin(find: () => Conflict[]): Conflict[] | undefined {
  try {
    return find();
  } catch (error) {
    if (error instanceof FleetError && error.errorName === 'PATTERN_TOO_COMPLEX') return undefined;
    throw error;
  }
}
