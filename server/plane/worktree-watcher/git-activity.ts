import { existsSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

/**
 * Tells whether git is moving HEAD or the index right now. A checkout, merge, pull, reset or stash
 * takes the index lock (`index.lock`) before it writes a file and commits it (renames it to
 * `index`) after; HEAD moves after that. inotify delivers the git directory's events and the
 * worktree's in the order they happened (one queue), so the lock's state is followed from the
 * events themselves, never from a later look at the disk: a change seen while it is held came
 * with the move. Reading the disk instead would miss a fast checkout already over when read.
 */
export class GitActivity {
  private readonly watcher: FSWatcher;
  private lockHeld: boolean;

  constructor(gitDir: string) {
    this.lockHeld = existsSync(join(gitDir, 'index.lock'));
    this.watcher = watch(gitDir, (event, name) => {
      // The lock appears or goes (created, committed, removed) with a rename event; it is written to with a change event.
      if (name === 'index.lock') this.lockHeld = event === 'rename' ? !this.lockHeld : true;
      else if (name === 'index' && event === 'rename') this.lockHeld = false; // the lock was committed
    });
    this.watcher.on('error', () => this.watcher.close());
  }

  /** Whether a change seen now came with a git move. */
  get moving(): boolean {
    return this.lockHeld;
  }

  close(): void {
    this.watcher.close();
  }
}
