import type { FleetEvent } from '../../../contracts/index.js';
import { StoreRetryError, type Store } from '../../store/store.js';

/**
 * Carries the core's events to the store and tells who waits when they are durable. Events
 * emitted in one turn of the event loop go out as one append; the store's group commit shares
 * fsyncs between appends. Subscribers only ever see durable events.
 */
export class Journal {
  private durableSeq: number;
  private pending: FleetEvent[] = [];
  private readonly waiting: { seq: number; resolve(): void; reject(error: Error): void }[] = [];
  private readonly subscribers = new Set<(events: readonly FleetEvent[]) => void>();
  private failure: Error | undefined;

  constructor(
    private readonly store: Pick<Store<unknown, FleetEvent>, 'append'>,
    startSeq: number,
    private readonly onFatal: (error: Error) => void,
  ) {
    this.durableSeq = startSeq;
  }

  get lastDurableSeq(): number {
    return this.durableSeq;
  }

  record(event: FleetEvent): void {
    if (this.pending.length === 0) queueMicrotask(() => this.flush());
    this.pending.push(event);
  }

  /** Resolves once every event up to `seq` is on disk. */
  whenDurable(seq: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (seq <= this.durableSeq) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiting.push({ seq, resolve, reject }));
  }

  subscribe(listener: (events: readonly FleetEvent[]) => void): () => void {
    this.subscribers.add(listener);
    return () => this.subscribers.delete(listener);
  }

  /** Hands everything recorded so far to the store now, rather than at the end of this turn. */
  flush(): void {
    if (this.failure) return;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.store.append(batch).then(
      () => this.acknowledge(batch),
      (error: unknown) => {
        // A replicated store that refuses a batch rolls the plane back itself (discard, rebase).
        if (!(error instanceof StoreRetryError)) this.fail(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  /** Another plane's events, already durable in the shared log: subscribers see them like ours. */
  adopt(events: readonly FleetEvent[]): void {
    if (events.length > 0) this.acknowledge(events);
  }

  /**
   * Everything recorded after `storedThrough` (the last event the store took) will never be
   * durable: its waiters get `reason`; those up to it are answered.
   */
  discard(reason: StoreRetryError, storedThrough: number): void {
    this.pending = [];
    this.durableSeq = Math.max(this.durableSeq, storedThrough);
    for (const waiter of this.waiting.splice(0)) {
      if (waiter.seq <= this.durableSeq) waiter.resolve();
      else waiter.reject(reason);
    }
  }

  /** The core was reset to a replica of the shared log at `seq`. */
  rebase(seq: number): void {
    this.durableSeq = seq;
  }

  private acknowledge(batch: readonly FleetEvent[]): void {
    this.durableSeq = Math.max(this.durableSeq, batch[batch.length - 1]!.seq);
    let settled = 0;
    while (settled < this.waiting.length && this.waiting[settled]!.seq <= this.durableSeq) settled++;
    for (const waiter of this.waiting.splice(0, settled)) waiter.resolve();
    for (const subscriber of this.subscribers) subscriber(batch);
  }

  /** The disk refused a write: nothing after it may be acknowledged, so the plane must stop. */
  private fail(error: Error): void {
    this.failure = error;
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    this.onFatal(error);
  }
}
