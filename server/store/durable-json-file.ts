// lowdb adapter for JSON files that must survive a crash. lowdb's stock JSONFile renames a temp
// file but never fsyncs, so an acknowledged write can vanish on power loss; this one can't.
import { readFile } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import { z } from 'zod';
import { stageFile, type StagedFile } from './durable-write.js';
import { StoreCorruptError } from './store.js';
import { writeValidatedJson } from './validated-json.js';

export interface DurableJsonFileOptions {
  mode?: number;
  /** Checks the parsed JSON before the schema does (a checksum): returns the problem, if any. */
  check?: (json: unknown) => string | undefined;
}

export class DurableJsonFile<T> implements Adapter<T> {
  readonly #path: string;
  readonly #schema: z.ZodType<T>;
  readonly #mode: number;
  readonly #check: DurableJsonFileOptions['check'];
  // Writes run one after another so the last write called is the one left on disk.
  #queue: Promise<void> = Promise.resolve();

  constructor(path: string, schema: z.ZodType<T>, options: DurableJsonFileOptions = {}) {
    this.#path = path;
    this.#schema = schema;
    this.#mode = options.mode ?? 0o600;
    this.#check = options.check;
  }

  /** null when the file does not exist; StoreCorruptError when it is not valid JSON of the schema. */
  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new StoreCorruptError(this.#path, `not valid JSON (${(error as Error).message})`);
    }
    const problem = this.#check?.(json);
    if (problem !== undefined) throw new StoreCorruptError(this.#path, problem);
    const parsed = this.#schema.safeParse(json);
    if (!parsed.success) {
      throw new StoreCorruptError(this.#path, `does not match its schema: ${z.prettifyError(parsed.error)}`);
    }
    return parsed.data;
  }

  /**
   * Checks `data` against the schema and writes it to a temp file now, in pieces (a snapshot can
   * be tens of megabytes); its `commit` makes it the file. Throws SchemaMismatchError if it does
   * not match: what the next read would refuse must never reach the disk.
   */
  stage(data: T): StagedFile {
    return stageFile(
      this.#path,
      (write) => {
        writeValidatedJson(this.#schema, data, write);
        write('\n');
      },
      this.#mode,
    );
  }

  write(data: T): Promise<void> {
    let staged: StagedFile;
    try {
      staged = this.stage(data);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const done = this.#queue.then(() => staged.commit());
    // A failed write is reported to its caller; it must not block the writes queued behind it.
    this.#queue = done.catch(() => undefined);
    return done;
  }
}
