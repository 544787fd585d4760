import type { FleetCore } from '../../core/fleet-core.js';
import { nothingCommitted, recordLanded } from '../../core/integration-train.js';
import type { WorkRecord } from '../../core/orchestration-records.js';
import { mergeBase, resolveCommit } from '../git/refs.js';
import { isAncestor, isBranchName } from './train-git.js';
import { patchIds, RECENT_TARGET_COMMITS } from './patch-ids.js';

/** Statuses in which an item's branch waits to land outside a train batch. */
const WAITING = new Set(['review', 'verified', 'done', 'landing', 'land_failed']);

/**
 * Notices work that landed without the train (DESIGN §14, §16): an item's commit that became an
 * ancestor of the target (a merge), or whose diff appears among the target's recent commits by
 * patch id (a squash or rebase merge). The item is then recorded landed and its held claims end.
 */
export class LandingWatch {
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(
    private readonly core: FleetCore,
    private readonly intervalMs: number,
    private readonly log: (message: string) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      for (const item of this.waiting()) {
        const commit = await this.landedAs(item).catch(() => undefined);
        const entry = this.core.state.train.get(item.id);
        // A train batch in progress records its own landing.
        if (commit !== undefined && entry?.status !== 'building') {
          this.core.run(undefined, (ctx) => recordLanded(ctx, item.id, commit, 'plane'));
          this.log(`${item.id} landed on ${item.integration!.target} outside the train (${commit.slice(0, 12)}): its held claims are released`);
        }
      }
    } finally {
      this.checking = false;
    }
  }

  private waiting(): WorkRecord[] {
    return [...this.core.state.work.values()].filter((w) => w.integration !== undefined && !nothingCommitted(w.integration) && w.landedCommit === undefined && (WAITING.has(w.status) || this.core.indexes.claimsHeldFor.has(w.id)));
  }

  /** The target commit that carries the item's work, if it landed. */
  private async landedAs(item: WorkRecord): Promise<string | undefined> {
    const { repository, target, commit } = item.integration!;
    if (!(await isBranchName(repository, target))) return undefined;
    const head = await resolveCommit(repository, `refs/heads/${target}`);
    if (head === undefined) return undefined;
    if (await isAncestor(repository, commit, head)) return commit;
    const base = await mergeBase(repository, head, commit);
    if (base === undefined || base === commit) return undefined;
    const branchPatch = (await patchIds(repository, ['diff', '--no-ext-diff', '--no-textconv', base, commit])).get('-');
    if (branchPatch === undefined) return undefined;
    const recent = await patchIds(repository, ['log', '-p', '--no-merges', '--no-ext-diff', '--no-textconv', `-n${RECENT_TARGET_COMMITS}`, '--format=commit %H', `${base}..${head}`]);
    for (const [landed, patch] of recent) if (patch === branchPatch) return landed;
    return undefined;
  }
}
