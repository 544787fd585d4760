// snapshot.json: the state as of some seq, kept with lowdb over the fsyncing adapter. The seq
// travels inside the same file as the state, so the two can never disagree after a crash; a
// checksum travels with them, so a byte changed on disk is refused instead of loaded.
import { createHash } from 'node:crypto';
import { Low, type Adapter } from 'lowdb';
import { z } from 'zod';
import { DurableJsonFile } from './durable-json-file.js';
import { stageFile, type StagedFile } from './durable-write.js';
import { writeValidatedJson } from './validated-json.js';

export interface SnapshotRecord<S> {
  seq: number;
  state: S;
}

export interface SnapshotFileOptions {
  /** Whether a state (as found on disk) was written before snapshots carried a checksum. */
  predatesChecksum?: (state: unknown) => boolean;
}

const seqSchema = z.number().int().nonnegative();

/**
 * The checksum: sha256 (hex) of the record's canonical JSON, `{"seq":…,"state":…}` exactly as
 * JSON.stringify writes it. The file holds that text with `,"sha256":"…"` before its last brace.
 */
export function snapshotChecksum(seq: unknown, state: unknown): string {
  return createHash('sha256').update(JSON.stringify({ seq, state })).digest('hex');
}

export class SnapshotFile<S> {
  readonly #path: string;
  readonly #stateSchema: z.ZodType<S>;
  readonly #adapter: DurableJsonFile<SnapshotRecord<S>>;
  readonly #db: Low<SnapshotRecord<S> | null>;

  constructor(path: string, stateSchema: z.ZodType<S>, options: SnapshotFileOptions = {}) {
    this.#path = path;
    this.#stateSchema = stateSchema;
    const recordSchema = z.object({ seq: seqSchema, state: stateSchema });
    const check = (json: unknown) => checksumProblem(json, options.predatesChecksum ?? (() => false));
    this.#adapter = new DurableJsonFile(path, recordSchema as z.ZodType<SnapshotRecord<S>>, { check });
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
   * Writes the record to a temp file now, as it is at this moment, in pieces, hashing them on the
   * way; its `commit` makes it the snapshot. Nothing is copied or kept: the caller's state may
   * change right after. Throws SchemaMismatchError if the record does not match the schema.
   */
  stage(record: SnapshotRecord<S>): StagedFile {
    return stageFile(this.#path, (write) => {
      const hash = createHash('sha256');
      const hashed = (text: string) => {
        hash.update(text);
        write(text);
      };
      hashed('{"seq":');
      writeValidatedJson(seqSchema, record.seq, hashed, '$.seq');
      hashed(',"state":');
      writeValidatedJson(this.#stateSchema, record.state, hashed, '$.state');
      hash.update('}');
      write(`,"sha256":"${hash.digest('hex')}"}\n`);
    });
  }
}

/** What is wrong with the checksum of a parsed snapshot file, if anything. */
function checksumProblem(json: unknown, predatesChecksum: (state: unknown) => boolean): string | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined; // the schema names it
  const { sha256, seq, state } = json as { sha256?: unknown; seq?: unknown; state?: unknown };
  if (sha256 === undefined) return predatesChecksum(state) ? undefined : 'it carries no checksum (sha256), though its version writes one: it was cut or edited';
  const actual = snapshotChecksum(seq, state);
  if (sha256 !== actual) return `its checksum does not match its content (sha256 ${String(sha256)} recorded, ${actual} found): a byte changed after it was written`;
  return undefined;
}
