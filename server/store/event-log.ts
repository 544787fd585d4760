// The live end of the event log: one append-mode handle on the newest segment, fed by group commit.
import { fdatasyncSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { fsyncDirectory, writeAllSync } from './durable-write.js';
import { GroupCommit } from './group-commit.js';
import { segmentPath, type Segment } from './segment-files.js';
import type { StoreStats } from './store.js';

export class EventLog<E extends { seq: number }> {
  readonly stats: StoreStats = { appends: 0, fsyncs: 0, bytes: 0 };
  readonly #eventsDir: string;
  readonly #commit = new GroupCommit((batch) => this.#flush(batch));
  #handle: FileHandle;
  #liveFirst: number;
  /** Last seq handed to append: durable, or queued to become so. */
  #lastSeq: number;
  #durableSeq: number;

  private constructor(eventsDir: string, handle: FileHandle, liveFirst: number, lastSeq: number) {
    this.#eventsDir = eventsDir;
    this.#handle = handle;
    this.#liveFirst = liveFirst;
    this.#lastSeq = lastSeq;
    this.#durableSeq = lastSeq;
  }

  /**
   * Opens (or creates) the live segment. `intactBytes` cuts off a torn final record first, so new
   * appends start on a clean line instead of gluing onto half a record.
   */
  static async open<E extends { seq: number }>(
    eventsDir: string,
    live: Segment,
    lastSeq: number,
    intactBytes?: number,
  ): Promise<EventLog<E>> {
    const handle = await open(live.path, 'a', 0o600);
    try {
      if (intactBytes !== undefined) {
        await handle.truncate(intactBytes);
        await handle.datasync();
      }
      await fsyncDirectory(eventsDir); // the segment may have just been created
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new EventLog<E>(eventsDir, handle, live.first, lastSeq);
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Highest seq known durable: everything up to it has been acknowledged or recovered. */
  get durableSeq(): number {
    return this.#durableSeq;
  }

  append(events: readonly E[]): Promise<void> {
    for (const [i, event] of events.entries()) {
      // A gap or a repeat would make the log unreadable on the next start; refuse it here instead.
      if (event.seq !== this.#lastSeq + 1 + i) {
        return Promise.reject(new Error(`append out of order: expected seq ${this.#lastSeq + 1 + i}, got ${event.seq}`));
      }
    }
    if (events.length === 0) return Promise.resolve();
    const data = Buffer.from(events.map((event) => `${JSON.stringify(event)}\n`).join(''));
    const last = events[events.length - 1]!.seq;
    this.#lastSeq = last;
    this.stats.appends++;
    return this.#commit.write(data).then(() => {
      this.#durableSeq = last; // batches resolve in queue order, so this only moves forward
    });
  }

  /** Resolves once everything appended so far is durable. */
  sync(): Promise<void> {
    return this.#commit.run(() => Promise.resolve());
  }

  /** Starts a new live segment at the next seq; the old one becomes read-only history. */
  rotate(): Promise<void> {
    const first = this.#lastSeq + 1;
    return this.#commit.run(async () => {
      if (first === this.#liveFirst) return; // the live segment is still empty
      const next = await open(segmentPath(this.#eventsDir, first), 'a', 0o600);
      try {
        await fsyncDirectory(this.#eventsDir); // acked events must not sit in a file that can vanish
      } catch (error) {
        await next.close();
        throw error;
      }
      const previous = this.#handle;
      this.#handle = next;
      this.#liveFirst = first;
      await previous.close();
    });
  }

  /** Waits for everything queued so far to be durable, then releases the file. */
  close(): Promise<void> {
    return this.#commit.run(() => this.#handle.close());
  }

  async #flush(batch: Buffer): Promise<void> {
    // Both in place, not in the thread pool: the hand-offs cost more CPU than they save, and group
    // commit batches everything that arrives meanwhile (see GroupCommit). Measured: ~12% more
    // durable operations per second with 32 agents, a third fewer fdatasyncs.
    writeAllSync(this.#handle.fd, batch);
    fdatasyncSync(this.#handle.fd);
    this.stats.fsyncs++;
    this.stats.bytes += batch.length;
  }
}
