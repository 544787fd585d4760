import { setImmediate as nextTurn } from 'node:timers/promises';
import { ChangeLog, type Change } from './change-log.js';
import { DirectoryTree } from './directory-tree.js';
import { GitActivity } from './git-activity.js';
import { gitDirOf, ignoredAmong, ignoredDirectories } from './git-queries.js';

/** Who may be writing in a worktree now, and who says so (`watcher`, or the tool a hook named). */
export interface Writers {
  writers: string[];
  source: string;
  /** The core's clock when asked (the change was written by then): a claim granted later was not broken by it. */
  seenAt: number;
  /** With no writer: the agents whose hooked calls in other worktrees were in flight (one may be the writer). */
  callsInFlight?: string[];
}

/** A write seen in the worktree: its path, the mark it was first seen at, the agents that may have made it, and who says so. */
export interface SeenWrite extends Writers {
  path: string;
  mark: number;
}

export interface WorktreeWatchOptions {
  root: string;
  maxDirectories: number;
  /** The last mark given out before this watch began: anything older it cannot answer for. */
  startMark: number;
  now(): number;
  nextMark(): number;
  /** Who may be writing `path` (relative to the root) now: asked when the change is seen, not when it is judged. */
  writersNow(path: string): Writers;
  /** Changes that are neither git's nor ignored, a debounce window at a time. */
  onWrites(writes: SeenWrite[]): Promise<void>;
  log(message: string): void;
}

/** A burst of writes is judged once it has been quiet this long, or this long after it began. */
const QUIET_MS = 100;
const MAX_DELAY_MS = 300;
/** Bounds on what one worktree can make the plane hold. */
const MAX_PENDING_PATHS = 2000;
const MAX_CHANGES_KEPT = 10_000;

/** One watched worktree: its directories, its git activity, its recent changes and its pending writes. */
export class WorktreeWatch {
  readonly ready: Promise<void>;
  private readonly changes: ChangeLog;
  private readonly tree: DirectoryTree;
  private git: GitActivity | undefined;
  private pending = new Map<string, Writers & { mark: number }>();
  private firstPendingAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private judging: Promise<void> = Promise.resolve();
  private overflowed = false;
  private closed = false;

  constructor(private readonly options: WorktreeWatchOptions) {
    this.changes = new ChangeLog(MAX_CHANGES_KEPT, options.startMark);
    this.tree = new DirectoryTree({
      root: options.root,
      maxDirectories: options.maxDirectories,
      onChange: (path) => this.seen(path),
      ignored: (paths) => ignoredAmong(options.root, paths),
      log: options.log,
    });
    this.ready = this.start();
  }

  private async start(): Promise<void> {
    const gitDir = await gitDirOf(this.options.root);
    if (this.closed) return;
    this.git = new GitActivity(gitDir);
    await this.tree.start(await ignoredDirectories(this.options.root));
    this.options.log(`watcher: watching ${this.options.root} (${this.tree.size} directories)`);
  }

  /** Paths changed after `since` (git's flagged, ignored ones left out), at most `limit`. */
  async changesSince(since: number, limit: number): Promise<{ changes: Change[]; truncated: boolean }> {
    await this.ready;
    await nextTurn(); // events the kernel queued before this request are read first
    const found = this.changes.since(since, limit);
    const ignored = await ignoredAmong(this.options.root, found.changes.map((c) => c.path));
    return { changes: found.changes.filter((c) => !ignored.has(c.path)), truncated: found.truncated };
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.tree.close();
    this.git?.close();
  }

  private seen(path: string): void {
    const now = this.options.now();
    const viaGit = this.git?.moving ?? false;
    const mark = this.options.nextMark();
    this.changes.add({ mark, path, viaGit });
    if (viaGit) return;
    if (this.pending.size >= MAX_PENDING_PATHS && !this.pending.has(path)) {
      if (!this.overflowed) this.options.log(`watcher: more than ${MAX_PENDING_PATHS} paths changed at once in ${this.options.root}; the rest of this burst is not judged`);
      this.overflowed = true;
      return;
    }
    if (this.pending.size === 0) this.firstPendingAt = now;
    // Who wrote it is asked once a burst, when the change is first seen (a file tool's word is used up by it).
    if (!this.pending.has(path)) this.pending.set(path, { mark, ...this.options.writersNow(path) });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.judge(), Math.max(0, Math.min(QUIET_MS, this.firstPendingAt + MAX_DELAY_MS - now)));
  }

  /** Resolves once every change the kernel reported before this call has been judged (the pending burst now, not after its quiet time). */
  async judged(): Promise<void> {
    await this.ready;
    await nextTurn();
    if (this.pending.size > 0) {
      clearTimeout(this.timer);
      this.judge();
    }
    await this.judging;
  }

  /** One burst at a time, in order: the next waits for the one before. */
  private judge(): void {
    const burst = this.pending;
    this.pending = new Map();
    this.overflowed = false;
    this.judging = this.judging.then(async () => {
      if (this.closed) return;
      const ignored = await ignoredAmong(this.options.root, [...burst.keys()]);
      const writes = [...burst].filter(([path]) => !ignored.has(path)).map(([path, writers]) => ({ path, ...writers }));
      if (writes.length > 0 && !this.closed) await this.options.onWrites(writes);
    }).catch((error: Error) => this.options.log(`watcher: ${this.options.root}: ${error.message}`));
  }
}
