import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FleetCore } from '../../core/fleet-core.js';
import { integrationConfigOf } from '../../core/integration-config.js';
import type { Ctx } from '../../core/context.js';
import { holdPlaneLease } from '../../core/leases.js';
import { endBatch, escalateRevert, failLanding, integratorLease, landingName, recordReverted, nextBatch, recordBatch, recordLanded, returnToBuilder, returnToReview, scopesWithWork, takeOffTrain } from '../../core/integration-train.js';
import type { TrainBatchRecord, TrainRecord } from '../../core/state.js';
import { DEFAULT_BUILD_TIMEOUT_S } from '../../core/build-gate.js';
import type { Journal } from '../../plane/persistence/journal.js';
import { runBuildCommand } from '../../plane/build/build-command.js';
import { forecastMerge } from '../git/merge-tree.js';
import { resolveCommit } from '../git/refs.js';
import { GIT_LIMITS } from '../git/limits.js';
import { gitOutput, nulFields } from '../git/run-git.js';
import { StoreRetryError } from '../../store/store.js';
import { compareAndSwap, fetchInto, headOf, isAncestor, isBranchName, mergeInto, prepareScratch, pushTo, revertInto, worktreesOn } from './train-git.js';

/** Lines of a RED build's log sent back with the culprit. */
const LOG_TAIL_CHARS = 4000;
/** Files named in a conflict's reason. */
const MAX_NAMED_FILES = 20;
/** How often a step taken as the integrator is decided again when the shared log says another plane decided first. */
const INTEGRATOR_DECISION_ATTEMPTS = 5;

/** This plane no longer holds the scope's integrator lease: it stops, moving nothing, and leaves the batch to the holder. */
class NotIntegrator extends Error {}

/** Where one scope's train lands: the repository, the target and what the configuration adds. */
interface Track {
  scope: string;
  repository: string;
  target: string;
  targetRef: string;
  remote: string | undefined;
  push: boolean;
  command: string;
  timeoutMs: number;
  scratch: string;
}

/**
 * The train's hands (DESIGN §14, §16): for each scope with queued work, a batch merged onto the
 * target's head in a scratch worktree of the plane's own, one `--no-ff` merge commit per item, the
 * build command run on the merged tree, and only when GREEN the target moved by compare-and-swap
 * (with a remote: pushed without force first). RED: the batch is split in halves until the culprit
 * is alone, and it goes back to its builder with the log tail. Each step that cannot be undone is
 * recorded in the core first, so a plane killed at any point resumes with the target at a GREEN commit.
 */
export class TrainRunner {
  private running = false;
  private again = false;
  private stopping = false;
  private kill: (() => void) | undefined;
  private readonly liveLogs = new Map<string, string>();

  private readonly timer: NodeJS.Timeout;

  /**
   * `planeId` names this plane as the integrator lease's holder (`leaseTtlMs` in the core's time); the
   * lease is renewed every `renewEveryMs` (real time, a fraction of the TTL) while this plane holds it,
   * and a scope whose integrator died is taken over then.
   */
  constructor(
    private readonly core: FleetCore,
    private readonly journal: Journal,
    private readonly home: string,
    private readonly planeId: string,
    private readonly leaseTtlMs: number,
    renewEveryMs: number,
    private readonly log: (message: string) => void,
  ) {
    this.timer = setInterval(() => this.renew(), renewEveryMs);
    this.timer.unref();
  }

  /** Keeps the integrator leases this plane holds (a long build outlives a TTL), and looks for scopes to take over. */
  private renew(): void {
    const mine = [...this.core.state.leases.values()].filter((l) => l.agentId === this.planeId && l.name.startsWith('integration/'));
    this.core.run(undefined, (ctx) => mine.forEach((l) => holdPlaneLease(ctx, l.name, this.planeId, this.leaseTtlMs)));
    if (scopesWithWork(this.core.state).length > 0) this.kick();
  }

  /** Whether this plane integrates `scope` now: it holds (or has just taken) the scope's integrator lease. */
  private integrates(scope: string): boolean {
    return this.core.run(undefined, (ctx) => holdPlaneLease(ctx, integratorLease(scope), this.planeId, this.leaseTtlMs));
  }

  /**
   * Takes a step as the scope's integrator: `change` is recorded in one decision with the lease's
   * renewal, and this waits until it is durable. On a shared log the store refuses a decision made
   * on a state another plane's events overtook (a plane that stood still past the lease sees an old
   * state in which it still holds it), so a durable renewal means this plane held the lease in the
   * fleet's own order just now; a refused one is decided again on the caught-up state. Every record
   * the train makes goes through here (a plane that lost the lease must not end or decide the
   * holder's batch), and so does each git step that moves something (the target's update, the push).
   */
  private async asIntegrator(scope: string, change: (ctx: Ctx) => void = () => undefined): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const held = this.core.run(undefined, (ctx) => {
        if (!holdPlaneLease(ctx, integratorLease(scope), this.planeId, this.leaseTtlMs)) return false;
        change(ctx);
        return true;
      });
      if (!held) {
        const holder = this.core.state.leases.get(integratorLease(scope))?.agentId ?? 'another plane';
        throw new NotIntegrator(`this plane no longer holds the integrator lease of ${scope} (${holder} does): it moves nothing and leaves the batch to the holder`);
      }
      try {
        await this.durable();
        return;
      } catch (error) {
        if (!(error instanceof StoreRetryError) || attempt >= INTEGRATOR_DECISION_ATTEMPTS) throw error;
        await error.settled;
      }
    }
  }

  kick(): void {
    if (this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.drain();
  }

  stop(): void {
    this.stopping = true;
    clearInterval(this.timer);
    this.kill?.();
  }

  /** The tail of the build running now for `scope`, if any. */
  liveLog(scope: string): string | undefined {
    return this.liveLogs.get(scope);
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      do {
        this.again = false;
        for (const scope of scopesWithWork(this.core.state)) {
          if (this.stopping) return;
          await this.runScope(scope).catch((error: unknown) => this.log(`train ${scope}: ${error instanceof Error ? error.message : String(error)}; it resumes at the next kick`));
        }
      } while (this.again && !this.stopping);
    } finally {
      this.running = false;
    }
  }

  private async runScope(scope: string): Promise<void> {
    if (!this.integrates(scope)) return;
    const resumed = this.core.state.trainBatches.get(scope);
    if (resumed) await this.resume(resumed);
    for (let batch = nextBatch(this.core.state, scope); batch.length > 0 && !this.stopping; batch = nextBatch(this.core.state, scope)) {
      const before = this.core.state.seq;
      await this.landBatch(batch);
      // A pass that recorded nothing would only repeat itself: wait for the next kick instead of spinning.
      if (this.core.state.seq === before) return;
    }
  }

  /** Waits until the events recorded so far are durable: the step after this cannot be undone. */
  private durable(): Promise<void> {
    return this.journal.whenDurable(this.core.state.seq);
  }

  private async track(entry: TrainRecord): Promise<Track | string> {
    const config = integrationConfigOf(this.core.state, entry.scope);
    const build = this.core.state.buildConfigs.get(entry.scope);
    const command = config.buildCommand ?? build?.command;
    if (command === undefined) return 'no build command is configured for this repository: set one (fleet integrate configure --build CMD, or fleet build configure --command CMD); the train lands nothing it has not built';
    if (!(await isBranchName(entry.repository, entry.target))) return `the target "${entry.target}" is not a valid branch name`;
    const timeoutMs = (config.timeoutSeconds ?? build?.timeoutSeconds ?? DEFAULT_BUILD_TIMEOUT_S) * 1000;
    const scratch = join(this.home, 'integration', createHash('sha256').update(`${entry.scope}\0${entry.repository}`).digest('hex').slice(0, 16));
    return { scope: entry.scope, repository: entry.repository, target: entry.target, targetRef: `refs/heads/${entry.target}`, remote: config.remote, push: config.push, command, timeoutMs, scratch };
  }

  /** The commit the batch is built on: the remote's head fetched into refs/fleet/*, else the local target. */
  private async baseOf(track: Track): Promise<string | undefined> {
    if (track.remote !== undefined) {
      const ref = await fetchInto(track.repository, track.remote, track.target);
      return resolveCommit(track.repository, ref);
    }
    return resolveCommit(track.repository, track.targetRef);
  }

  private async landBatch(entries: TrainRecord[]): Promise<void> {
    const first = entries[0]!;
    const track = await this.track(first);
    const same = entries.filter((e) => e.repository === first.repository && e.target === first.target);
    if (typeof track === 'string') {
      await this.asIntegrator(first.scope, (ctx) => same.forEach((e) => failLanding(ctx, e.itemId, track)));
      return;
    }
    // Only a push lands without the local branch: otherwise moving it is the landing.
    const holders = track.remote === undefined || !track.push ? await worktreesOn(track.repository, track.targetRef) : [];
    if (holders.length > 0) {
      const reason = `the target ${track.target} is checked out in the worktree ${holders[0]}: the train never moves a branch under a worktree (its files would no longer match its HEAD); check out another branch there, or configure a remote to land by push (fleet integrate configure --remote NAME --push)`;
      await this.asIntegrator(track.scope, (ctx) => same.forEach((e) => failLanding(ctx, e.itemId, reason)));
      return;
    }
    const base = await this.baseOf(track);
    if (base === undefined) {
      await this.asIntegrator(track.scope, (ctx) => same.forEach((e) => failLanding(ctx, e.itemId, `the target ${track.target} does not exist${track.remote !== undefined ? ` on ${track.remote}` : ''}`)));
      return;
    }
    const live: TrainRecord[] = [];
    for (const entry of same) {
      const verdict = await this.precheck(entry, track, base);
      if (verdict === 'live') live.push(entry);
    }
    await this.landSet(track, live);
  }

  /** An entry whose branch moved goes back to review; one already on the target is done. */
  private async precheck(entry: TrainRecord, track: Track, base: string): Promise<'live' | 'settled'> {
    if (entry.revert !== undefined) return 'live';
    const status = this.core.state.work.get(entry.itemId)?.status;
    if (status !== undefined && status !== 'landing') {
      await this.asIntegrator(entry.scope, (ctx) => takeOffTrain(ctx, entry.itemId, 'plane', `${entry.itemId} is ${status}, no longer landing: it does not land`));
      return 'settled';
    }
    if (!(await isBranchName(track.repository, entry.branch))) {
      await this.asIntegrator(entry.scope, (ctx) => failLanding(ctx, entry.itemId, `"${entry.branch}" is not a valid branch name`));
      return 'settled';
    }
    const head = await resolveCommit(track.repository, `refs/heads/${entry.branch}`);
    if (head !== undefined && head !== entry.commit) {
      const reason = `${entry.branch} moved since the commit that was verified and queued (${entry.commit.slice(0, 12)} → ${head.slice(0, 12)}): the train lands only the commit that was verified, so it goes back to review`;
      await this.asIntegrator(entry.scope, (ctx) => (this.core.state.work.has(entry.itemId) ? returnToReview(ctx, entry.itemId, reason) : failLanding(ctx, entry.itemId, reason)));
      return 'settled';
    }
    if (await isAncestor(track.repository, entry.commit, base)) {
      await this.asIntegrator(entry.scope, (ctx) => recordLanded(ctx, entry.itemId, entry.commit, 'plane'));
      return 'settled';
    }
    return 'live';
  }

  /** Merges, builds and lands `entries` on the target's head; RED splits them until the culprit is alone. */
  private async landSet(track: Track, entries: TrainRecord[]): Promise<void> {
    if (entries.length === 0 || this.stopping) return;
    const base = await this.baseOf(track);
    if (base === undefined) return;
    await prepareScratch(track.repository, track.scratch, base);
    const merged: TrainRecord[] = [];
    const merges: string[] = [];
    for (const entry of entries) {
      const result = await (entry.revert !== undefined
        ? revertInto(track.scratch, { landed: entry.revert, from: entry.revertFrom }, `fleet: roll back ${entry.itemId} (revert ${entry.revertFrom !== undefined ? `${entry.revertFrom.slice(0, 12)}..` : ''}${entry.revert.slice(0, 12)}, its landing of ${entry.branch})`)
        : mergeInto(track.scratch, entry.commit, `fleet: land ${entry.itemId} (${entry.branch})`)
      ).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      if (result instanceof Error) {
        // git refused this entry (unrelated histories, a timeout): it leaves the train with git's word, and the rest is merged again from scratch.
        const reason = `git could not ${entry.revert !== undefined ? `revert ${entry.revert.slice(0, 12)}` : `merge ${entry.branch}`} onto ${track.target}: ${result.message.slice(0, 1000)}`;
        await this.asIntegrator(track.scope, (ctx) => (entry.revert !== undefined ? escalateRevert(ctx, entry.itemId, reason) : failLanding(ctx, entry.itemId, reason)));
        return;
      }
      if (result.merged) {
        merged.push(entry);
        merges.push(result.commit);
      } else if ('already' in result) continue; // brought in by an earlier entry: the next batch finds it on the target
      else if (entry.revert !== undefined) await this.revertConflicted(entry, track, result.conflicts);
      else await this.conflicted(track, entry, base, merged, result.conflicts);
    }
    if (merged.length === 0) return;
    await this.asIntegrator(track.scope, (ctx) => recordBatch(ctx, { scope: track.scope, itemIds: merged.map((e) => e.itemId), base }));
    const tip = await headOf(track.scratch);
    this.liveLogs.set(track.scope, '');
    const outcome = await runBuildCommand(track.command, track.scratch, track.timeoutMs, (kill) => (this.kill = kill), (tail) => this.liveLogs.set(track.scope, tail));
    this.kill = undefined;
    this.liveLogs.delete(track.scope);
    if (this.stopping) return; // killed by the plane stopping: the batch is resumed (rebuilt) at the next start
    if (outcome.exitCode === 0 && !outcome.timedOut) {
      // An entry that left the train during the build (landed by hand, a decision) must not land with it: build again without it.
      if (merged.some((e) => this.core.state.train.get(e.itemId)?.status !== 'building')) return this.requeue(track, 'an item left the train during the build');
      await this.asIntegrator(track.scope, (ctx) => recordBatch(ctx, { scope: track.scope, itemIds: merged.map((e) => e.itemId), base, tip, merges }));
      await this.finishGreen(track, { scope: track.scope, itemIds: merged.map((e) => e.itemId), base, tip, merges, at: 0 });
      return;
    }
    const tail = outcome.log.slice(-LOG_TAIL_CHARS);
    this.log(`train ${track.target}: batch of ${merged.length} RED (exit ${outcome.exitCode}${outcome.timedOut ? ', timed out' : ''})`);
    await this.asIntegrator(track.scope, (ctx) => endBatch(ctx, track.scope, true));
    if (merged.length === 1) {
      const culprit = merged[0]!;
      const why = `the build of ${track.target} with ${culprit.branch} merged is RED (${outcome.timedOut ? `timed out after ${track.timeoutMs / 1000} s` : `exit ${outcome.exitCode}`}): fix it on the branch and complete again`;
      await this.asIntegrator(track.scope, (ctx) => {
        if (culprit.revert !== undefined) escalateRevert(ctx, culprit.itemId, `the revert of ${culprit.itemId}'s landing ${landingName(culprit.revert, culprit.revertFrom)} makes the build of ${track.target} RED: the operator decides (nothing was changed)`, tail);
        else if (this.core.state.work.has(culprit.itemId)) returnToBuilder(ctx, culprit.itemId, 'red', why, tail);
        else failLanding(ctx, culprit.itemId, why);
      });
      return;
    }
    // Bisect: each half on the target as it then stands, so halves that pass land and the culprit is found.
    const half = Math.ceil(merged.length / 2);
    await this.landSet(track, merged.slice(0, half));
    await this.landSet(track, merged.slice(half).filter((e) => this.core.state.train.get(e.itemId)?.status === 'queued'));
  }

  /** A revert that collides with what landed after it escalates to the operator, naming the files: history is never rewritten. */
  private async revertConflicted(entry: TrainRecord, track: Track, files: string[]): Promise<void> {
    const reason = `the revert of ${entry.itemId}'s landing ${landingName(entry.revert!, entry.revertFrom)} conflicts with later landings on ${track.target} in ${files.slice(0, MAX_NAMED_FILES).join(', ')}${files.length > MAX_NAMED_FILES ? ` and ${files.length - MAX_NAMED_FILES} more` : ''}: the operator decides (revert it by hand, or leave it)`;
    await this.asIntegrator(track.scope, (ctx) => escalateRevert(ctx, entry.itemId, reason));
  }

  /** A textual conflict: the item goes back to its builder naming the files and what it collides with. */
  private async conflicted(track: Track, entry: TrainRecord, base: string, merged: readonly TrainRecord[], files: string[]): Promise<void> {
    const withTarget = await forecastMerge(track.repository, base, entry.commit, MAX_NAMED_FILES).catch(() => undefined);
    const others: string[] = [];
    if (withTarget?.clean === true) {
      for (const other of merged) {
        const pair = await forecastMerge(track.repository, other.commit, entry.commit, MAX_NAMED_FILES).catch(() => undefined);
        if (pair?.clean === false) others.push(`${other.branch} (${other.itemId}, landing in the same batch)`);
      }
    }
    const against = others.length > 0 ? others.join(', ') : `the target ${track.target} at ${base.slice(0, 12)}`;
    const named = files.slice(0, MAX_NAMED_FILES).join(', ') + (files.length > MAX_NAMED_FILES ? ` and ${files.length - MAX_NAMED_FILES} more` : '');
    const reason = `${entry.branch} conflicts with ${against} in ${named}: merge ${track.target} into ${entry.branch}, resolve, and complete again`;
    await this.asIntegrator(track.scope, (ctx) => (this.core.state.work.has(entry.itemId) ? returnToBuilder(ctx, entry.itemId, 'conflict', reason) : failLanding(ctx, entry.itemId, reason)));
  }

  /**
   * Moves the target to a tip built GREEN: with a remote, a push without force (a remote that moved
   * since the fetch means the batch is built again), then the local branch if nobody has it checked
   * out; without one, a compare-and-swap from the base it was built on.
   */
  private async finishGreen(track: Track, batch: TrainBatchRecord & { tip: string }): Promise<void> {
    if (track.remote !== undefined && !track.push) return this.finishLocally(track, batch);
    await this.asIntegrator(track.scope);
    if (track.remote !== undefined) {
      const pushed = track.push ? await pushTo(track.repository, track.remote, batch.tip, track.target) : { ok: true, message: '' };
      if (!pushed.ok) {
        const now = await this.baseOf(track);
        if (now !== batch.base && now !== batch.tip) return this.requeue(track, `${track.remote}/${track.target} moved during the build`);
        if (now !== batch.tip) {
          await this.asIntegrator(track.scope, (ctx) => {
            for (const id of batch.itemIds) failLanding(ctx, id, `${track.remote} refused the push of ${track.target} (never forced): ${pushed.message}`);
            endBatch(ctx, track.scope);
          });
          return;
        }
      }
      const local = await resolveCommit(track.repository, track.targetRef);
      const checkedOut = (await worktreesOn(track.repository, track.targetRef)).length > 0;
      if (!checkedOut && local !== undefined && local !== batch.tip && (await isAncestor(track.repository, local, batch.tip))) {
        await this.asIntegrator(track.scope);
        await compareAndSwap(track.repository, track.targetRef, batch.tip, local, 'fleet train: landed on the remote');
      }
    } else if (!(await compareAndSwap(track.repository, track.targetRef, batch.tip, batch.base, `fleet train: land ${batch.itemIds.join(' ')}`))) {
      return this.requeue(track, `${track.target} moved during the build`);
    }
    await this.recordLandedBatch(track, batch);
  }

  /**
   * A remote without --push: the batch was built on the remote's head and lands on the local branch,
   * which must move (a fast-forward by compare-and-swap, nobody having it checked out) or nothing landed.
   */
  private async finishLocally(track: Track, batch: TrainBatchRecord & { tip: string }): Promise<void> {
    await this.asIntegrator(track.scope);
    const local = await resolveCommit(track.repository, track.targetRef);
    const holders = await worktreesOn(track.repository, track.targetRef);
    const moved =
      holders.length === 0 &&
      local !== undefined &&
      (local === batch.tip || ((await isAncestor(track.repository, local, batch.tip)) && (await compareAndSwap(track.repository, track.targetRef, batch.tip, local, `fleet train: land ${batch.itemIds.join(' ')}`))));
    if (moved) return this.recordLandedBatch(track, batch);
    const why = holders.length > 0 ? `it is checked out in the worktree ${holders[0]}` : local === undefined ? 'it does not exist locally' : `it has commits that ${track.remote}/${track.target} has not (or it moved during the build)`;
    const reason = `built GREEN on ${track.remote}/${track.target}, but without --push the train lands by moving the local ${track.target}, and ${why}: nothing landed; configure --push, or bring the local ${track.target} level with ${track.remote} and land again`;
    await this.asIntegrator(track.scope, (ctx) => {
      for (const id of batch.itemIds) failLanding(ctx, id, reason);
      endBatch(ctx, track.scope);
    });
  }

  private async requeue(track: Track, why: string): Promise<void> {
    this.log(`train ${track.target}: ${why}; the batch is built again on the new head (nothing unbuilt lands)`);
    await this.asIntegrator(track.scope, (ctx) => endBatch(ctx, track.scope));
  }

  /** Each item's own merge commit: the batch's first-parent chain from base to tip, oldest first. */
  private async recordLandedBatch(track: Track, batch: TrainBatchRecord & { tip: string }): Promise<void> {
    const chain = nulFields((await gitOutput(track.repository, ['rev-list', '-z', '--first-parent', '--reverse', `${batch.base}..${batch.tip}`], { timeoutMs: GIT_LIMITS.quickMs, maxOutputBytes: GIT_LIMITS.quickBytes })).stdout).flatMap((s) => s.split('\n')).filter(Boolean);
    await this.asIntegrator(track.scope, (ctx) => {
      batch.itemIds.forEach((id, i) => {
        const landedAs = batch.merges?.[i] ?? chain[i] ?? batch.tip;
        if (this.core.state.train.get(id)?.revert !== undefined) recordReverted(ctx, id, landedAs);
        else recordLanded(ctx, id, landedAs, 'plane');
      });
      endBatch(ctx, track.scope);
    });
    this.log(`train ${track.target}: landed ${batch.itemIds.join(', ')} at ${batch.tip.slice(0, 12)}`);
  }

  /**
   * After a restart: a batch that was building is built again; one built GREEN whose target move
   * may or may not have happened is finished (or found done, or built again if the target moved).
   */
  private async resume(batch: TrainBatchRecord): Promise<void> {
    const entry = this.core.state.train.get(batch.itemIds[0] ?? '');
    const track = entry && (await this.track(entry));
    if (batch.tip === undefined || track === undefined || typeof track === 'string') {
      await this.asIntegrator(batch.scope, (ctx) => endBatch(ctx, batch.scope));
      return;
    }
    const head = await this.baseOf(track);
    const moved = head !== undefined && (head === batch.tip || (await isAncestor(track.repository, batch.tip, head)));
    // With a remote, a push that happened still leaves the local branch to move: finishing again does both.
    if (moved && track.remote === undefined) await this.recordLandedBatch(track, { ...batch, tip: batch.tip });
    else if (moved || head === batch.base) {
      await this.finishGreen(track, { ...batch, tip: batch.tip });
    } else await this.requeue(track, `${track.target} moved while the plane was down`);
  }
}
