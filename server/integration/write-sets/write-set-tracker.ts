import { existsSync } from 'node:fs';
import type { FleetEvent } from '../../../contracts/index.js';
import type { FleetCore } from '../../core/fleet-core.js';
import { boundedPaths, endWriteSet, recordWriteSet } from '../../core/integration-forecast.js';
import { commonDirOf, worktreeTopOf } from '../git/common-dir.js';
import type { GitQueue } from '../git/git-queue.js';
import { resolveCommit } from '../git/refs.js';
import { GitFailure } from '../git/run-git.js';
import type { ForecastSide } from '../forecast/forecaster.js';
import { scopeIdOf } from '../../plane/repository/scope-id-of.js';
import { redoIfDropped } from '../forecast/redo-if-dropped.js';
import { integrationTarget } from './integration-target.js';
import { worktreeWork } from './worktree-work.js';

/** A burst of saves is one recomputation, this long after its last change... */
export const WRITE_SET_DEBOUNCE_MS = 750;
/** ...or this long after its first one: an agent saving without pause still gets its write-set. */
const WRITE_SET_MAX_WAIT_MS = 4 * WRITE_SET_DEBOUNCE_MS;
/**
 * How often a live write-set's HEAD and target are looked at (two ref lookups): commits in a linked
 * worktree and moves of the target happen outside the worktree the watcher sees.
 */
export const WRITE_SET_POLL_MS = 5_000;

/**
 * A write-set; none (said once as its end); not this plane's to say (a worktree on another machine
 * of a shared log); or git failed (a timeout, a lock): the last write-set stands until the next change.
 */
type OwnSide = Required<ForecastSide> & { head: string };
type Computed = { kind: 'write-set'; side: OwnSide } | { kind: 'none'; why: string } | { kind: 'elsewhere' } | { kind: 'failed'; why: string };

/**
 * Keeps each live agent's write-set current (DESIGN §14): recomputed, debounced, after the
 * watcher or a hook saw a change in its worktree, after it joined, and when a poll finds its HEAD
 * or its target moved. Every git run is asynchronous and bounded; one agent's computation runs at
 * a time (a change during it schedules one more).
 */
export class WriteSetTracker {
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; firstAt: number }>();
  private readonly running = new Set<string>();
  private readonly again = new Set<string>();
  /** The newest computed side of each agent with a write-set: what the forecaster merges. */
  private readonly sides = new Map<string, OwnSide>();
  private readonly poll: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly core: FleetCore,
    private readonly queue: GitQueue,
    private readonly onChanged: (agentId: string) => Promise<void>,
    /** Resolves once the event at `seq` is durable; rejects if the shared log's order dropped it. */
    private readonly durable: (seq: number) => Promise<void>,
    private readonly log: (message: string) => void,
    private readonly debounceMs = WRITE_SET_DEBOUNCE_MS,
  ) {
    core.onEvent((event: FleetEvent) => {
      if (event.type === 'agent.joined' || event.type === 'agent.rejoined') this.changed([event.agentId]);
      if (event.type === 'agent.left' || event.type === 'agent.expired' || event.type === 'agent.process_exited' || event.type === 'agent.pruned') this.sides.delete(event.agentId);
    });
    this.poll = setInterval(() => void this.pollMoves(), WRITE_SET_POLL_MS);
    this.poll.unref();
  }

  /** The agents whose worktree changed (the watcher's or a hook's word): their write-sets are recomputed after the debounce. */
  changed(agentIds: readonly string[]): void {
    if (this.closed) return;
    const now = performance.now();
    for (const agentId of agentIds) {
      const pending = this.timers.get(agentId);
      if (pending && now - pending.firstAt >= WRITE_SET_MAX_WAIT_MS - this.debounceMs) continue; // due soon anyway
      clearTimeout(pending?.timer);
      const timer = setTimeout(() => {
        this.timers.delete(agentId);
        void this.recompute(agentId);
      }, this.debounceMs);
      this.timers.set(agentId, { timer, firstAt: pending?.firstAt ?? now });
    }
  }

  /** The live agents' worktrees as the plane last saw them (on start: every live agent with a worktree). */
  reconcile(): void {
    const live = [...this.core.state.agents.values()].filter((agent) => !agent.gone && agent.worktree !== undefined);
    this.changed(live.map((agent) => agent.agentId));
  }

  sideOf(agentId: string): ForecastSide | undefined {
    return this.sides.get(agentId);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.poll);
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private async recompute(agentId: string): Promise<void> {
    if (this.running.has(agentId)) {
      this.again.add(agentId);
      return;
    }
    this.running.add(agentId);
    try {
      const outcome = await this.queue.run(() => this.compute(agentId)).catch((error: unknown) => {
        if (!(error instanceof GitFailure)) throw error;
        return { kind: 'failed', why: error.message } as Computed;
      });
      if (this.closed || outcome.kind === 'elsewhere') return;
      if (outcome.kind === 'failed') return this.log(`write-set of ${agentId} kept as it was: ${outcome.why}`);
      if (outcome.kind === 'none') {
        this.sides.delete(agentId);
        if (this.core.state.writeSets.has(agentId)) this.log(`write-set of ${agentId} ended: ${outcome.why}`);
        this.core.run(undefined, (ctx) => endWriteSet(ctx, agentId));
        return;
      }
      const known = this.sides.get(agentId);
      this.sides.set(agentId, outcome.side);
      if (!known || known.commit !== outcome.side.commit || known.targetCommit !== outcome.side.targetCommit) await this.onChanged(agentId);
    } catch (error) {
      this.log(`write-set of ${agentId} not computed: ${(error as Error).message}`);
    } finally {
      this.running.delete(agentId);
      if (this.again.delete(agentId)) void this.recompute(agentId);
    }
  }

  private async compute(agentId: string): Promise<Computed> {
    const agent = this.core.state.agents.get(agentId);
    // A gone agent's write-set is no longer computed: the core kept it (items it built await landing) or dropped it.
    if (agent?.gone !== undefined) return { kind: 'elsewhere' };
    if (!agent || agent.worktree === undefined) return { kind: 'none', why: 'no live agent with a worktree' };
    const worktree = agent.worktree;
    // On a shared log the roster holds other planes' agents: the plane that hears an agent keeps its write-set (one writer each).
    if (!this.ours(agentId) || !existsSync(worktree)) return { kind: 'elsewhere' };
    // Its own worktree: where two live agents share a checkout, landing is the commit on the target (DESIGN §16).
    const sharing = [...this.core.state.agents.values()].some((other) => other.agentId !== agentId && !other.gone && other.worktree === worktree);
    if (sharing) return { kind: 'none', why: 'its worktree is shared with another live agent' };
    const [repository, top] = await Promise.all([commonDirOf(worktree), worktreeTopOf(worktree)]);
    const target = repository === undefined ? undefined : await integrationTarget(this.core.state, worktree, repository);
    if (target === undefined || repository === undefined || top === undefined) return { kind: 'none', why: 'no repository or no integration target (no origin/HEAD, main or master)' };
    const work = await worktreeWork(worktree, target);
    if (work.kind === 'none') return work;
    const { branch, snapshot, targetCommit } = work;
    // A detached HEAD (a checkout of a commit, a bisect, a moved target left checked out) is no branch of its own: nothing of it will land.
    if (branch === undefined) return { kind: 'none', why: 'its HEAD is detached: it is on no branch of its own' };
    const bounded = boundedPaths(work.paths);
    const recorded = this.core.run(undefined, (ctx) =>
      recordWriteSet(ctx, {
        agentId,
        callsign: agent.callsign,
        // Its root, as hooks name it, whichever folder inside it the agent registered.
        worktree: top,
        repository,
        scope: scopeIdOf(repository),
        branch,
        target,
        head: snapshot.head,
        commit: snapshot.commit,
        paths: bounded.paths,
        truncated: work.truncated || bounded.cut,
      }),
    );
    if (recorded) {
      void redoIfDropped(this.durable(this.core.state.seq), () => {
        this.sides.delete(agentId);
        this.changed([agentId]);
      });
    }
    return { kind: 'write-set', side: { commit: snapshot.commit, targetCommit, head: snapshot.head } };
  }

  /** Whether this plane hears the agent (on a shared log, each agent's plane keeps its write-set; alone, every agent is ours). */
  private ours(agentId: string): boolean {
    return this.core.state.agents.get(agentId)?.plane === this.core.config.planeId;
  }

  /** Two ref lookups per live write-set: a commit, a moved target or a deleted branch is recomputed. */
  private async pollMoves(): Promise<void> {
    for (const record of [...this.core.state.writeSets.values()]) {
      if (this.closed) return;
      const side = this.sides.get(record.agentId);
      if (record.awaitingLanding !== undefined) continue; // its agent is gone: the write-set stands as it was until its items land
      if (!this.ours(record.agentId) || (!side && !existsSync(record.worktree))) continue; // another plane's agent (a shared log)
      const [head, targetCommit] = await Promise.all([resolveCommit(record.worktree, 'HEAD'), resolveCommit(record.worktree, record.target)]);
      if (!side || head !== side.head || targetCommit !== side.targetCommit) this.changed([record.agentId]);
    }
  }
}
