import { MAX_FORECAST_PATHS } from '../../../contracts/index.js';
import type { FleetCore } from '../../core/fleet-core.js';
import { forecastKey, forecastPartners, recordForecast, recordReach, scopeHasPairs, writeSetScope, writeSetScopes, type ForecastOutcome, type WriteSetRecord } from '../../core/integration-forecast.js';
import { GitFailure } from '../git/run-git.js';
import type { GitQueue } from '../git/git-queue.js';
import { forecastMerge } from '../git/merge-tree.js';
import type { CommitReach } from './commit-reach.js';
import type { IntegratorRole } from './integrator-role.js';
import { redoIfDropped } from './redo-if-dropped.js';

/** A merge forecast that outlives this is given up (and logged): the next change tries again. */
export const FORECAST_CHECK_TIMEOUT_MS = 30_000;

/**
 * What the forecaster needs of an agent's newest write-set that this plane computed: its snapshot
 * commit, and the target's commit it was compared with.
 */
export interface ForecastSide {
  commit: string;
  targetCommit: string;
}

type MergeSide = { record: WriteSetRecord; commit: string; otherCommit: string; cwd: string; other?: WriteSetRecord };

/**
 * The conflict forecast (DESIGN §14, §16). Each agent's own plane merges its work (the snapshot
 * commit, uncommitted edits included) with the target. Between branches, the scope's integrator
 * alone merges each pair of live write-sets that share a path, wherever they were computed, so a
 * conflict is recorded once: when a write-set changes (here, or on the shared log), and for every
 * pair when it becomes the integrator (the state it takes over is in the core). One check per
 * changed pair, never per pair of the fleet; a pair whose two commits were already checked is not
 * checked again.
 */
export class Forecaster {
  /** Pair key → the two commits last checked, so an unchanged pair costs nothing. */
  private readonly checked = new Map<string, string>();
  /** The scopes this plane forecasts as their integrator now. */
  private readonly leading = new Set<string>();

  constructor(
    private readonly core: FleetCore,
    private readonly queue: GitQueue,
    private readonly sideOf: (agentId: string) => ForecastSide | undefined,
    private readonly role: IntegratorRole,
    private readonly reach: CommitReach,
    /** Resolves once the event at `seq` is durable; rejects if the shared log's order dropped it. */
    private readonly durable: (seq: number) => Promise<void>,
    private readonly log: (message: string) => void,
  ) {}

  /** This plane's agent's write-set changed: its check with the target, then (as the integrator) with the others. */
  async forecast(agentId: string): Promise<void> {
    const mine = this.core.state.writeSets.get(agentId);
    const side = this.sideOf(agentId);
    if (!mine || !side) return;
    await Promise.all([this.check({ record: mine, commit: side.commit, otherCommit: side.targetCommit, cwd: mine.worktree }), this.forecastPairs(agentId)]);
  }

  /** An agent's write-set changed (on this plane or another): as the scope's integrator, each pair with it that shares a path. */
  async forecastPairs(agentId: string): Promise<void> {
    const mine = this.core.state.writeSets.get(agentId);
    // A write-set that shares no path with another needs no integrator: the lease is taken only where there is a pair.
    if (!mine || forecastPartners(this.core.state, agentId).length === 0) return;
    const scope = writeSetScope(mine);
    const lead = this.leads(scope);
    if (lead === 'new') await this.forecastScope(scope, () => true);
    else if (lead === 'yes') await this.pairsOf(mine);
  }

  /**
   * Looks at every scope with write-sets (on a timer): one whose integrator lease this plane has just
   * taken (its holder died) has every pair forecast now; a write-set that was not reachable is tried again.
   */
  async takeOver(): Promise<void> {
    for (const scope of writeSetScopes(this.core.state)) {
      if (!scopeHasPairs(this.core.state, scope)) continue;
      const lead = this.leads(scope);
      if (lead !== 'no') await this.forecastScope(scope, (record) => lead === 'new' || record.notCompared !== undefined);
    }
  }

  forget(agentId: string): void {
    this.reach.forget(agentId);
  }

  private async forecastScope(scope: string, which: (record: WriteSetRecord) => boolean): Promise<void> {
    for (const record of [...this.core.state.writeSets.values()]) {
      if (writeSetScope(record) === scope && which(record)) await this.pairsOf(record);
    }
  }

  private async pairsOf(mine: WriteSetRecord): Promise<void> {
    // Every write-set is judged, partner or not: one the integrator cannot reach is said to be not compared.
    const ours = await this.reachOf(mine);
    const partners = forecastPartners(this.core.state, mine.agentId);
    const checks = [];
    for (const other of partners) {
      const theirs = await this.reachOf(other);
      if ('commit' in ours && 'commit' in theirs && ours.repository === theirs.repository) {
        checks.push(this.check({ record: mine, commit: ours.commit, other, otherCommit: theirs.commit, cwd: ours.repository }));
      }
    }
    await Promise.all(checks);
  }

  /**
   * Whether this plane is the scope's integrator: `new` when it was not before, and then it forgets
   * what it checked (another plane may have recorded since) and forecasts the whole scope.
   */
  private leads(scope: string): 'no' | 'yes' | 'new' {
    if (!this.role.holds(scope)) {
      this.leading.delete(scope);
      return 'no';
    }
    if (this.leading.has(scope)) return 'yes';
    this.leading.add(scope);
    this.log(`forecast: this plane is the integrator of ${scope}; forecasting between its branches`);
    for (const [key] of this.checked) if (!key.endsWith(' target')) this.checked.delete(key);
    return 'new';
  }

  /** Where this plane can merge an agent's work (its own snapshot if this plane computed it), said in the state when it cannot. */
  private async reachOf(record: WriteSetRecord): Promise<{ repository: string; commit: string } | { notCompared: string }> {
    const commit = this.sideOf(record.agentId)?.commit ?? record.commit;
    const reach = await this.queue.run(() => this.reach.of(record, commit));
    const note = 'notCompared' in reach ? reach.notCompared : reach.note;
    if (!this.role.holds(writeSetScope(record))) return reach;
    const before = this.core.state.seq;
    this.core.run(undefined, (ctx) => recordReach(ctx, record.agentId, record.commit, note));
    if (this.core.state.seq !== before) this.redoIfDropped(record.agentId, () => this.forecastPairs(record.agentId));
    return reach;
  }

  private async check(side: MergeSide): Promise<void> {
    const { record: mine, other } = side;
    const key = forecastKey(mine.agentId, other?.agentId);
    const pair = [side.commit, side.otherCommit].sort().join(' ');
    if (this.checked.get(key) === pair) return;
    // Nothing of this agent's to merge: no conflict with the target is possible (and one that was, cleared).
    const merged = mine.paths.length === 0 && !other ? { conflicts: [], truncated: false } : await this.merge(side.cwd, side.commit, side.otherCommit);
    if (!merged) return;
    this.checked.set(key, pair);
    const outcome: ForecastOutcome = {
      agentId: mine.agentId,
      callsign: mine.callsign,
      ...(mine.branch !== undefined && { branch: mine.branch }),
      ...(other && { otherAgentId: other.agentId, otherCallsign: other.callsign }),
      otherBranch: other ? (other.branch ?? `(detached at ${other.head.slice(0, 12)})`) : mine.target,
      paths: merged.conflicts,
      truncated: merged.truncated,
      ...(this.role.sharedLog && { integrator: this.role.planeName }),
    };
    // The lease may have gone to another plane while git ran (this plane's taking of it overtaken on the log): then it is not this plane's to say.
    if (other && !this.role.holds(writeSetScope(mine))) return;
    const before = this.core.state.seq;
    this.core.run(undefined, (ctx) => recordForecast(ctx, outcome));
    const recorded = this.core.state.seq;
    if (recorded === before) return;
    this.redoIfDropped(mine.agentId, () => {
      this.checked.delete(key);
      return other ? this.forecastPairs(mine.agentId) : this.forecast(mine.agentId);
    });
  }

  /** What this plane just recorded of `agentId` is decided again if the shared log's order drops it. */
  private redoIfDropped(agentId: string, redo: () => Promise<void>): void {
    void redoIfDropped(this.durable(this.core.state.seq), () => {
      this.reach.forget(agentId);
      redo().catch((error: unknown) => this.log(`forecast: ${(error as Error).message}`));
    });
  }

  private async merge(cwd: string, ours: string, theirs: string): Promise<{ conflicts: string[]; truncated: boolean } | undefined> {
    try {
      return await this.queue.run(() => forecastMerge(cwd, ours, theirs, MAX_FORECAST_PATHS, FORECAST_CHECK_TIMEOUT_MS));
    } catch (error) {
      // Unrelated histories, a commit gc took, a timeout: no forecast for this pair now, said once in the log.
      if (!(error instanceof GitFailure)) throw error;
      this.log(`forecast: no merge forecast of ${ours.slice(0, 12)} with ${theirs.slice(0, 12)}: ${error.message}`);
      return undefined;
    }
  }
}
