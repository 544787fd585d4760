import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface DirectoryTreeOptions {
  root: string;
  /** Past this many watched directories the rest go unwatched, and the log says so once. */
  maxDirectories: number;
  /** A file or directory (repository-relative) was created, written or removed. */
  onChange(path: string): void;
  /** Which of these new directories git ignores (they are not watched). */
  ignored(paths: string[]): Promise<Set<string>>;
  log(message: string): void;
}

/** A git directory, the worktree's or a submodule's. */
const underGit = (path: string): boolean => /(^|\/)\.git(\/|$)/.test(path);
const childOf = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);

/**
 * Watches every directory of a worktree with one inotify watch each (fs.watch's `recursive` on
 * Linux walks everything, `.git` and ignored trees included, with no bound). `.git` and ignored
 * directories are skipped, symlinks are not followed, and directories created later are added.
 */
export class DirectoryTree {
  private readonly watchers = new Map<string, FSWatcher>();
  private capped = false;
  private closed = false;
  private newDirectories = new Set<string>();
  private adding: Promise<void> | undefined;

  constructor(private readonly options: DirectoryTreeOptions) {}

  get size(): number {
    return this.watchers.size;
  }

  /** Watches the tree, leaving out `ignored` directories; resolves once every watch is in place. */
  async start(ignored: ReadonlySet<string>): Promise<void> {
    await this.add([''], ignored, false);
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** Breadth first, so a capped tree keeps its upper levels. Files found are reported when `report`. */
  private async add(dirs: string[], ignored: ReadonlySet<string>, report: boolean): Promise<void> {
    for (let level = dirs; level.length > 0 && !this.closed; ) {
      const next: string[] = [];
      for (const dir of level) {
        if (ignored.has(dir) || this.watchers.has(dir) || !this.watchOne(dir)) continue;
        const entries = await readdir(join(this.options.root, dir), { withFileTypes: true }).catch(() => []);
        for (const entry of entries) {
          const path = childOf(dir, entry.name);
          if (underGit(path)) continue;
          if (entry.isDirectory()) next.push(path);
          else if (report) this.options.onChange(path);
        }
      }
      level = next;
    }
  }

  private watchOne(dir: string): boolean {
    if (this.closed) return false;
    if (this.watchers.size >= this.options.maxDirectories) {
      if (!this.capped) this.options.log(`watcher: ${this.options.root} has more than ${this.options.maxDirectories} directories; the rest are not watched`);
      this.capped = true;
      return false;
    }
    let watcher: FSWatcher;
    try {
      watcher = watch(join(this.options.root, dir), (event, name) => {
        if (name !== null) this.changed(childOf(dir, name), event === 'rename');
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC') this.options.log(`watcher: out of inotify watches at ${dir || '.'} in ${this.options.root} (raise fs.inotify.max_user_watches)`);
      return false; // ENOENT: it went away meanwhile
    }
    watcher.on('error', () => this.unwatch(dir));
    this.watchers.set(dir, watcher);
    return true;
  }

  private changed(path: string, appearedOrWent: boolean): void {
    if (underGit(path)) return;
    this.options.onChange(path);
    if (!appearedOrWent || this.closed) return;
    this.newDirectories.add(path);
    this.adding ??= this.addNewDirectories().finally(() => (this.adding = undefined));
  }

  /** New directories are batched: one `git check-ignore` for all that appeared meanwhile. */
  private async addNewDirectories(): Promise<void> {
    while (this.newDirectories.size > 0 && !this.closed) {
      const batch = [...this.newDirectories];
      this.newDirectories = new Set();
      const dirs: string[] = [];
      for (const path of batch) {
        const stat = await lstat(join(this.options.root, path)).catch(() => undefined);
        if (stat?.isDirectory()) dirs.push(path);
        else if (this.watchers.has(path)) this.unwatch(path);
      }
      if (dirs.length > 0) await this.add(dirs, await this.options.ignored(dirs), true);
    }
  }

  /** A directory that went away takes its watched subdirectories with it. */
  private unwatch(dir: string): void {
    for (const [path, watcher] of this.watchers) {
      if (path === dir || path.startsWith(`${dir}/`)) {
        watcher.close();
        this.watchers.delete(path);
      }
    }
  }
}
