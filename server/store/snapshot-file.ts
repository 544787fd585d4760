// snapshot.json: the state as of some seq, kept with lowdb over the fsyncing adapter. The seq
// travels inside the same file as the state, so the two can never disagree after a crash.
import { Low, type Adapter } from 'lowdb';
import { z } from 'zod';
import { DurableJsonFile } from './durable-json-file.js';
import type { StagedFile } from './durable-write.js';

export interface SnapshotRecord<S> {
  seq: number;
  state: S;
}

export class SnapshotFile<S> {
  readonly #adapter: DurableJsonFile<SnapshotRecord<S>>;
  readonly #db: Low<SnapshotRecord<S> | null>;

  constructor(path: string, stateSchema: z.ZodType<S>) {
    const recordSchema = z.object({ seq: z.number().int().nonnegative(), state: stateSchema });
    this.#adapter = new DurableJsonFile(path, recordSchema as z.ZodType<SnapshotRecord<S>>);
    // null stands for "no snapshot yet". Writes go through `stage`, not lowdb, so they can be
    // staged at one seq and committed once the log has caught up.
    this.#db = new Low(this.#adapter as Adapter<SnapshotRecord<S> | null>, null);
  }

  /** null on a fresh start; throws StoreCorruptError naming the file when it cannot be trusted. */
  async read(): Promise<SnapshotRecord<S> | null> {
    await this.#db.read();
    const record = this.#db.data;
    this.#db.data = null; // the caller builds its own state from it; no second copy lingers here
    return record;
  }

  /**
   * Writes the record to a temp file now, as it is at this moment; its `commit` makes it the
   * snapshot. Nothing is copied or kept: the caller's state may change right after.
   */
  stage(record: SnapshotRecord<S>): StagedFile {
    return this.#adapter.stage(record);
  }
}
