// The default store: snapshot.json (lowdb over an fsyncing adapter) plus a segmented, append-only
// JSON Lines event log, all in one local folder owned by the plane.
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { fsyncDirectory, removeStaleTempFiles, type StagedFile } from './durable-write.js';
import { EventLog } from './event-log.js';
import { readHistory } from './log-history.js';
import { recoverLog } from './log-recovery.js';
import { SnapshotFile } from './snapshot-file.js';
import type { Recovered, Store, StoreStats } from './store.js';
import { SchemaMismatchError } from './validated-json.js';

export interface EmbeddedStoreOptions<S, E> {
  /** Created with mode 0700 when missing: the state is the plane's alone. */
  dir: string;
  snapshotSchema: z.ZodType<S>;
  eventSchema: z.ZodType<E>;
  /** Whether a snapshot's state (as found on disk) was written before snapshots carried a checksum. */
  snapshotPredatesChecksum?: (state: unknown) => boolean;
}

const NO_STATS: Readonly<StoreStats> = Object.freeze({ appends: 0, fsyncs: 0, bytes: 0 });

export class EmbeddedStore<S, E extends { seq: number }> implements Store<S, E> {
  readonly #dir: string;
  readonly #eventsDir: string;
  readonly #snapshotPath: string;
  readonly #eventSchema: z.ZodType<E>;
  readonly #snapshot: SnapshotFile<S>;
  #state: 'new' | 'opening' | 'open' | 'closed' = 'new';
  #log: EventLog<E> | undefined;
  #opening: Promise<Recovered<S, E>> | undefined;
  // Compactions run one at a time; close waits for the one in flight.
  #compaction: Promise<void> = Promise.resolve();
  #closing: Promise<void> | undefined;

  constructor(options: EmbeddedStoreOptions<S, E>) {
    this.#dir = options.dir;
    this.#eventsDir = join(options.dir, 'events');
    this.#snapshotPath = join(options.dir, 'snapshot.json');
    this.#eventSchema = options.eventSchema;
    this.#snapshot = new SnapshotFile(this.#snapshotPath, options.snapshotSchema, { ...(options.snapshotPredatesChecksum && { predatesChecksum: options.snapshotPredatesChecksum }) });
  }

  get stats(): Readonly<StoreStats> {
    return this.#log?.stats ?? NO_STATS;
  }

  open(): Promise<Recovered<S, E>> {
    if (this.#state !== 'new') return Promise.reject(new Error(`cannot open: the store is already ${this.#state}`));
    this.#state = 'opening';
    this.#opening = this.#openNow();
    return this.#opening;
  }

  async append(events: readonly E[]): Promise<void> {
    const log = this.#openLog('append');
    for (const event of events) {
      // Writing what the schema would refuse on the next start would brick the store: refuse now.
      const parsed = this.#eventSchema.safeParse(event);
      if (!parsed.success) {
        throw new TypeError(`cannot append event seq ${event.seq}: it does not match the event schema: ${z.prettifyError(parsed.error)}`);
      }
    }
    await log.append(events);
  }

  compact(snapshot: S, seq: number): Promise<void> {
    let staged: StagedFile;
    try {
      const log = this.#openLog('compact');
      if (!Number.isInteger(seq) || seq < 0 || seq > log.lastSeq) {
        throw new RangeError(`cannot compact at seq ${seq}: the log ends at seq ${log.lastSeq}`);
      }
      // Written out now, as it is: the caller's state keeps changing while earlier compactions finish.
      staged = this.#snapshot.stage({ seq, state: snapshot });
    } catch (error) {
      if (error instanceof SchemaMismatchError) return Promise.reject(new TypeError(`cannot compact: the snapshot does not match its schema, ${error.message}`));
      return Promise.reject(error as Error);
    }
    const run = this.#compaction.then(() => this.#compactNow(staged));
    this.#compaction = run.catch(() => undefined);
    return run;
  }

  history(fromSeq = 1): AsyncIterable<E> {
    if (!this.#log) throw new Error('cannot read history: call open() first');
    return readHistory(this.#eventsDir, this.#eventSchema, fromSeq, this.#log.durableSeq);
  }

  close(): Promise<void> {
    this.#closing ??= this.#closeNow();
    return this.#closing;
  }

  async #openNow(): Promise<Recovered<S, E>> {
    try {
      await mkdir(this.#eventsDir, { recursive: true, mode: 0o700 });
      await fsyncDirectory(this.#dir);
      await removeStaleTempFiles(this.#snapshotPath); // left by a crash during compaction
      const snapshot = await this.#snapshot.read();
      const snapshotSeq = snapshot?.seq ?? 0;
      const log = await recoverLog(this.#eventsDir, this.#eventSchema, snapshotSeq);
      const notices: string[] = [];
      if (log.dataAfterEnd) {
        // Opening cuts that data off for good; the copy keeps it for whoever looks into why.
        const copy = `${log.live.path}.cut-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        await copyFile(log.live.path, copy);
        notices.push(
          `${log.live.path}: data follows a run of zeros after seq ${log.lastSeq}: either a batch the disk wrote out of order in a crash (never acknowledged) or damage; the log now ends at seq ${log.lastSeq}, and the segment as found is kept in ${copy}`,
        );
      }
      this.#log = await EventLog.open<E>(this.#eventsDir, log.live, log.lastSeq, log.intactBytes);
      this.#state = 'open';
      return { snapshot: snapshot?.state ?? null, snapshotSeq, tail: log.tail, ...(notices.length > 0 && { notices }) };
    } catch (error) {
      this.#state = 'new'; // nothing was taken over; the caller may fix the files and retry
      throw error;
    }
  }

  // Crash-safe at every step: the snapshot lands (atomically) before the log rotates, and until
  // then the old snapshot plus the full log still recover the same state.
  async #compactNow(staged: StagedFile): Promise<void> {
    try {
      const log = this.#openLog('compact');
      await log.sync(); // every event the snapshot covers must be in the log before the snapshot exists
      await staged.commit();
      await log.rotate();
    } finally {
      staged.discard(); // only if it never reached commit
    }
  }

  async #closeNow(): Promise<void> {
    await this.#opening?.catch(() => undefined); // a close during startup releases what open took
    const wasOpen = this.#state === 'open';
    this.#state = 'closed';
    if (!wasOpen) return;
    await this.#compaction;
    await this.#log!.close();
  }

  #openLog(operation: string): EventLog<E> {
    if (this.#state === 'closed') throw new Error(`cannot ${operation}: the store is closed`);
    if (this.#state !== 'open' || !this.#log) throw new Error(`cannot ${operation}: call open() first`);
    return this.#log;
  }
}
