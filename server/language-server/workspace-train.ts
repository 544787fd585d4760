import { MAX_TRAIN_ENTRIES, type WorkspaceTrain as Train } from '../../contracts/lsp.js';
import type { PlaneClient } from '../client/plane-client.js';
import type { WorkspaceScopes } from './workspace-scopes.js';

/** Train events after which the trains are read again (one read per burst). */
const RELOAD_AFTER_MS = 100;
/** How often a running build's output is read while the editor shows the train. */
const LOG_POLL_MS = 2000;

/**
 * The trains of this workspace's repositories (DESIGN §14) as the Work view shows them: read from
 * fleet_integrate_status on connect and after each train event, and, only while the editor shows
 * the train and a batch builds, every LOG_POLL_MS for the build's output (no event carries it).
 * A repository's train goes to the editor (fleet/didChangeTrain) only when what it shows changed.
 */
export class WorkspaceTrain {
  private pending: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private following = false;
  private client: PlaneClient | undefined;
  /** What each scope's train last told the editor, as JSON: the same again is not sent. */
  private readonly sent = new Map<string, string>();
  private readonly building = new Set<string>();
  /** Reads one after the other: an older read never lands after a newer one. */
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly scopes: WorkspaceScopes,
    private readonly publish: (train: Train) => void,
    private readonly log: (message: string) => void,
  ) {}

  changed(client: PlaneClient | undefined): void {
    if (this.pending || !client) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      void this.load(client).catch((error: Error) => this.log(`reading the train failed: ${error.message}`));
    }, RELOAD_AFTER_MS);
  }

  /** The editor shows the train (or stopped showing it). */
  follow(follow: boolean): void {
    this.following = follow;
    this.schedulePoll();
  }

  load(client: PlaneClient): Promise<void> {
    const read = this.reading.then(() => this.read(client));
    this.reading = read.catch(() => undefined);
    return read;
  }

  private async read(client: PlaneClient): Promise<void> {
    this.client = client;
    for (const scope of this.scopes.folderScopes()) {
      const status = await client.call('fleet_integrate_status', { scope: scope.id });
      // The queue's oldest first (as they will land), then what left it, newest first.
      const waiting = status.entries.filter((entry) => entry.status === 'queued' || entry.status === 'building');
      const left = status.entries.filter((entry) => entry.status !== 'queued' && entry.status !== 'building').reverse();
      const entries = [...waiting, ...left].slice(0, MAX_TRAIN_ENTRIES);
      const train: Train = { scope: scope.id, ...(status.config.target !== undefined && { target: status.config.target }), ...(status.batch && { batch: status.batch }), entries, omitted: status.entries.length - entries.length };
      if (status.batch) this.building.add(scope.id);
      else this.building.delete(scope.id);
      const json = JSON.stringify(train);
      if (this.sent.get(scope.id) === json) continue;
      this.sent.set(scope.id, json);
      this.publish(train);
    }
    this.schedulePoll();
  }

  private schedulePoll(): void {
    const wanted = this.following && this.building.size > 0 && this.client !== undefined;
    if (!wanted) {
      clearTimeout(this.poll);
      this.poll = undefined;
      return;
    }
    if (this.poll) return;
    this.poll = setTimeout(() => {
      this.poll = undefined;
      if (this.client) void this.load(this.client).catch((error: Error) => this.log(`reading the build's output failed: ${error.message}`));
    }, LOG_POLL_MS);
  }

  dispose(): void {
    clearTimeout(this.pending);
    clearTimeout(this.poll);
    this.following = false;
  }
}
