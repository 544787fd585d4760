import type { FleetCore } from '../../core/fleet-core.js';
import { landingName, nothingCommitted, recordLanded } from '../../core/integration-train.js';
import type { WorkRecord } from '../../core/orchestration-records.js';
import { mergeBase, resolveCommit } from '../git/refs.js';
import { isAncestor, isBranchName } from './train-git.js';
import { patchIds, RECENT_TARGET_COMMITS } from './patch-ids.js';
import { rebasedLanding } from './rebased-landing.js';

/**
 * Branches checked per tick. Each costs up to a dozen git runs (three of them patch ids: the
 * branch's whole diff, the target's recent commits, the branch's own commits), and a fleet with hundreds of items waiting would otherwise start
 * thousands of git processes every tick, starving the agents' own git and the plane: the rest
 * wait their turn, in rotation, so every waiting branch is checked within ceil(waiting / 16) ticks.
 */
const BRANCHES_PER_TICK = 16;

/** Statuses in which an item's branch waits to land outside a train batch. */
const WAITING = new Set(['review', 'verified', 'done', 'landing', 'land_failed']);

/**
 * Notices work that landed without the train (DESIGN §14, §16): an item's commit that became an
 * ancestor of the target (a merge), whose diff appears among the target's recent commits by patch
 * id (a squash, or a rebase of one commit), or whose commits all appear there one after another (a
 * rebase of several). The item is then recorded landed and its held claims end.
 */
export class LandingWatch {
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  /** Items checked since the rotation last began again: each waiting item is checked once per lap. */
  private readonly lap = new Set<string>();

  constructor(
    private readonly core: FleetCore,
    private readonly intervalMs: number,
    private readonly log: (message: string) => void,
    private readonly branchesPerTick = BRANCHES_PER_TICK,
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
      for (const item of this.nextRound()) {
        const landing = await this.landedAs(item).catch(() => undefined);
        const entry = this.core.state.train.get(item.id);
        // A train batch in progress records its own landing.
        if (landing !== undefined && entry?.status !== 'building') {
          this.core.run(undefined, (ctx) => recordLanded(ctx, item.id, landing.commit, 'plane', landing.onto));
          this.log(`${item.id} landed on ${item.integration!.target} outside the train (${landingName(landing.commit, landing.onto)}): its held claims are released`);
        }
      }
    } finally {
      this.checking = false;
    }
  }

  /** The next `branchesPerTick` waiting items not yet checked in this lap (a new lap once all were). */
  private nextRound(): WorkRecord[] {
    const waiting = this.waiting();
    let due = waiting.filter((item) => !this.lap.has(item.id));
    if (due.length === 0) {
      this.lap.clear();
      due = waiting;
    }
    const round = due.slice(0, this.branchesPerTick);
    for (const item of round) this.lap.add(item.id);
    return round;
  }

  private waiting(): WorkRecord[] {
    return [...this.core.state.work.values()].filter((w) => w.integration !== undefined && !nothingCommitted(w.integration) && w.landedCommit === undefined && (WAITING.has(w.status) || this.core.indexes.claimsHeldFor.has(w.id)));
  }

  /** The target commit that carries the item's work (or the range that does), if it landed. */
  private async landedAs(item: WorkRecord): Promise<{ commit: string; onto?: string } | undefined> {
    const { repository, target, commit } = item.integration!;
    if (!(await isBranchName(repository, target))) return undefined;
    const head = await resolveCommit(repository, `refs/heads/${target}`);
    if (head === undefined) return undefined;
    if (await isAncestor(repository, commit, head)) return { commit };
    const base = await mergeBase(repository, head, commit);
    if (base === undefined || base === commit) return undefined;
    const branchPatch = (await patchIds(repository, ['diff', '--no-ext-diff', '--no-textconv', base, commit])).get('-');
    if (branchPatch === undefined) return undefined;
    // Only what reached the target since the branch left it, and only its last commits: the cost of a tick stays bounded on a busy target.
    const recent = await patchIds(repository, ['log', '-p', '--no-merges', '--no-ext-diff', '--no-textconv', `-n${RECENT_TARGET_COMMITS}`, '--format=commit %H', `${base}..${head}`]);
    for (const [landed, patch] of recent) if (patch === branchPatch) return { commit: landed };
    return recent.size === 0 ? undefined : rebasedLanding(repository, base, commit, recent);
  }
}
