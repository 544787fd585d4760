import { MAX_FORECAST_PATHS } from '../../../contracts/index.js';
import type { FleetCore } from '../../core/fleet-core.js';
import { forecastKey, forecastPartners, recordForecast, type ForecastOutcome, type WriteSetRecord } from '../../core/integration-forecast.js';
import { GitFailure } from '../git/run-git.js';
import type { GitQueue } from '../git/git-queue.js';
import { forecastMerge } from '../git/merge-tree.js';

/** A merge forecast that outlives this is given up (and logged): the next change tries again. */
export const FORECAST_CHECK_TIMEOUT_MS = 30_000;

/**
 * What the forecaster needs of an agent's newest write-set: its snapshot commit, and the target's
 * commit it was compared with when this plane computed it (absent for another plane's agent).
 */
export interface ForecastSide {
  commit: string;
  targetCommit?: string;
}

/**
 * The conflict forecast (DESIGN §14): when an agent's write-set changes, merges its work (the
 * snapshot commit, uncommitted edits included) without a worktree with each live branch whose
 * write-set shares a path with it, and with the target. One check per changed pair, never per pair
 * of the fleet; a pair whose two commits were already checked is not checked again.
 */
export class Forecaster {
  /** Pair key → the two commits last checked, so an unchanged pair costs nothing. */
  private readonly checked = new Map<string, string>();

  constructor(
    private readonly core: FleetCore,
    private readonly queue: GitQueue,
    private readonly sideOf: (agentId: string) => ForecastSide | undefined,
    private readonly log: (message: string) => void,
  ) {}

  async forecast(agentId: string): Promise<void> {
    const mine = this.core.state.writeSets.get(agentId);
    const side = this.sideOf(agentId);
    // Only an agent whose write-set this plane computed (it knows the target's commit) starts a forecast.
    if (!mine || side?.targetCommit === undefined) return;
    const partners = forecastPartners(this.core.state, agentId);
    const checks = partners.flatMap((other) => {
      const theirs = this.sideOf(other.agentId);
      return theirs ? [this.check(mine, side.commit, other, theirs.commit)] : [];
    });
    checks.push(this.check(mine, side.commit, undefined, side.targetCommit));
    await Promise.all(checks);
  }

  private async check(mine: WriteSetRecord, commit: string, other: WriteSetRecord | undefined, otherCommit: string): Promise<void> {
    const key = forecastKey(mine.agentId, other?.agentId);
    const pair = [commit, otherCommit].sort().join(' ');
    if (this.checked.get(key) === pair) return;
    // Nothing of this agent's to merge: no conflict with the target is possible (and one that was, cleared).
    const merged = mine.paths.length === 0 && !other ? { conflicts: [], truncated: false } : await this.merge(mine.worktree, commit, otherCommit);
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
    };
    this.core.run(undefined, (ctx) => recordForecast(ctx, outcome));
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
