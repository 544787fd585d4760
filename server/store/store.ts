// The plane's durability boundary. The domain core talks only to this interface, so the embedded
// store (lowdb snapshot + local event log) can be swapped for another backend without touching it.

/** What `open()` hands back: the last snapshot and the events logged after it, in order. */
export interface Recovered<S, E> {
  snapshot: S | null;
  snapshotSeq: number;
  tail: E[];
  /** What recovery did that an operator should hear of, one sentence each (for the plane's log). */
  notices?: string[];
}

export interface StoreStats {
  /** `append` calls that reached the log. */
  appends: number;
  /** fdatasyncs of the event log; fewer than `appends` once group commit kicks in. */
  fsyncs: number;
  /** Bytes written to the event log. */
  bytes: number;
}

export interface Store<S, E extends { seq: number }> {
  /** Loads the snapshot and replays the log tail; throws StoreCorruptError rather than guess. */
  open(): Promise<Recovered<S, E>>;
  /** Resolves once the events are durable. Seqs must continue the log exactly (last + 1, …). */
  append(events: readonly E[]): Promise<void>;
  /**
   * Durably writes a snapshot covering events <= seq, then starts a new live log segment. The
   * snapshot is taken as it is at the call; the caller may change it as soon as this returns.
   */
  compact(snapshot: S, seq: number): Promise<void>;
  /** Every acknowledged event ever logged, archived segments included, in seq order. */
  history(fromSeq?: number): AsyncIterable<E>;
  /** Flushes pending appends, then releases the log. */
  close(): Promise<void>;
  readonly stats: Readonly<StoreStats>;
}

const REMEDY =
  'The store refuses to start rather than guess or start empty: move the file aside or restore it ' +
  'from a backup, then start again.';

/** The store found something on disk it cannot trust. The message names the file and the fix. */
export class StoreCorruptError extends Error {
  readonly file: string;
  readonly line?: number;

  constructor(file: string, problem: string, line?: number) {
    super(`${line === undefined ? file : `${file}, line ${line}`}: ${problem}. ${REMEDY}`);
    this.name = 'StoreCorruptError';
    this.file = file;
    if (line !== undefined) this.line = line;
  }
}

/**
 * A replicated store did not take an append, and nothing of it was applied: another plane's
 * events took that place in the shared order (`superseded`: decide again once `settled`
 * resolves, on the caught-up state), or no quorum of replicas can be reached (`unavailable`).
 */
export class StoreRetryError extends Error {
  constructor(
    readonly kind: 'superseded' | 'unavailable',
    message: string,
    readonly settled: Promise<void>,
  ) {
    super(message);
    this.name = 'StoreRetryError';
  }
}
