import { existsSync } from 'node:fs';
import type { FleetCore } from '../../core/fleet-core.js';
import { integrationConfigOf } from '../../core/integration-config.js';
import { writeSetScope, type WriteSetRecord } from '../../core/integration-forecast.js';
import { resolveCommit } from '../git/refs.js';
import { GitFailure } from '../git/run-git.js';
import { fetchInto, isBranchName } from '../train/train-git.js';

/** A branch not on the remote at its head is fetched again at most this often (it may be pushed meanwhile). */
export const REFETCH_AFTER_MS = 10_000;

/** The commit of a write-set the integrator merges, in `repository`; `note` when only part of the work (its last commit) is reachable. */
export type Reach = { repository: string; commit: string; note?: string } | { notCompared: string };

/**
 * What the integrator's machine can reach of each write-set (DESIGN §14, §16): its snapshot commit
 * in a repository of the scope on this machine (the same repository's objects), else its branch
 * fetched from the scope's configured remote into `refs/fleet/<remote>/<branch>` (never
 * refs/remotes/*), which holds its commits but never its uncommitted edits. What it cannot reach is
 * said, never skipped.
 */
export class CommitReach {
  /** Agent id → the reach of its write-set's commit as last judged (git is asked again only when it changes). */
  private readonly known = new Map<string, { commit: string; reach: Reach; at: number }>();

  constructor(
    private readonly core: FleetCore,
    private readonly planeName: string,
  ) {}

  async of(record: WriteSetRecord, commit: string): Promise<Reach> {
    const known = this.known.get(record.agentId);
    const stale = known && 'notCompared' in known.reach && performance.now() - known.at > REFETCH_AFTER_MS;
    if (known?.commit === commit && !stale) return known.reach;
    const reach = await this.judge(record, commit);
    this.known.set(record.agentId, { commit, reach, at: performance.now() });
    return reach;
  }

  forget(agentId: string): void {
    this.known.delete(agentId);
  }

  private async judge(record: WriteSetRecord, commit: string): Promise<Reach> {
    const repository = this.repositoryOf(writeSetScope(record));
    const here = `the integrator's plane (${this.planeName})`;
    if (repository === undefined) return { notCompared: `not reachable from ${here}: no clone of this repository is on its machine` };
    if ((await resolveCommit(repository, commit)) !== undefined) return { repository, commit };
    const remote = integrationConfigOf(this.core.state, writeSetScope(record)).remote;
    if (remote === undefined) return { notCompared: `not reachable from ${here}: its commits are not in ${repository}, and no remote is configured to fetch them from (fleet integrate configure --remote NAME, then push the branch)` };
    const branch = record.branch?.replace(/^refs\/heads\//, '');
    if (branch === undefined || !(await isBranchName(repository, branch))) return { notCompared: `not reachable from ${here}: its commits are not in ${repository}, and a detached HEAD has no branch to fetch from ${remote}` };
    let fetched: string | undefined;
    try {
      fetched = await resolveCommit(repository, await fetchInto(repository, remote, branch));
    } catch (error) {
      // A branch not pushed (yet), a remote out of reach: said, and tried again later.
      if (!(error instanceof GitFailure)) throw error;
    }
    if (fetched !== record.head) return { notCompared: `not reachable from ${here}: ${remote}/${branch} is ${fetched === undefined ? 'not there' : `at ${fetched.slice(0, 12)}`}, not at its head ${record.head.slice(0, 12)}: push the branch to have it compared` };
    if (commit === record.head) return { repository, commit };
    return { repository, commit: record.head, note: `its uncommitted edits are not reachable from ${here}: compared as its last commit ${record.head.slice(0, 12)}, fetched from ${remote}` };
  }

  /**
   * The repository on this machine the scope's branches are merged in: one of this plane's own
   * agents' (its objects are here for sure), else any of the scope's that exists on this machine.
   */
  private repositoryOf(scope: string): string | undefined {
    const records = [...this.core.state.writeSets.values()].filter((r) => writeSetScope(r) === scope);
    const ours = (r: WriteSetRecord) => this.core.state.agents.get(r.agentId)?.plane === this.core.config.planeId;
    const ordered = [...records.filter(ours), ...records.filter((r) => !ours(r))].map((r) => r.repository);
    return ordered.find((repository) => existsSync(repository));
  }
}
