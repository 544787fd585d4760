// Group commit: one write + fdatasync makes a whole batch of appends durable. While a flush is in
// flight, or in the turn of the event loop right after one, new appends wait in the queue and go
// out together as the next batch. Batches grow with load by themselves, with no timer adding
// latency when the plane is idle.

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

type Write = Waiter & { data: Buffer };
type Task = Waiter & { task: () => Promise<void> };
type Entry = Write | Task;

export class GroupCommit {
  readonly #flush: (batch: Buffer) => Promise<void>;
  readonly #queue: Entry[] = [];
  #draining = false;
  #flushedThisTurn = false;
  #failure: Error | undefined;

  /** `flush` must write the batch and make it durable (write + fdatasync) before resolving. */
  constructor(flush: (batch: Buffer) => Promise<void>) {
    this.#flush = flush;
  }

  /** Resolves once `data` is durable, together with whatever else shared its batch. */
  write(data: Buffer): Promise<void> {
    return this.#enqueue((waiter) => ({ ...waiter, data }));
  }

  /**
   * Runs `task` alone, after everything queued before it is durable and before anything queued
   * after it is written: the hook for switching segments and closing the file between batches.
   */
  run(task: () => Promise<void>): Promise<void> {
    return this.#enqueue((waiter) => ({ ...waiter, task }));
  }

  #enqueue(entry: (waiter: Waiter) => Entry): Promise<void> {
    // Once a flush has failed, the on-disk tail is unknown: acknowledging anything later could
    // acknowledge data that sits behind a hole, so every later call fails fast.
    if (this.#failure) return Promise.reject(this.#failure);
    const done = new Promise<void>((resolve, reject) => this.#queue.push(entry({ resolve, reject })));
    if (!this.#draining) {
      this.#draining = true;
      // Right after a flush, more requests are likely waiting in this turn of the event loop (they
      // arrived while it blocked on the disk): wait until they are all handled, after the poll
      // phase, so they share the next flush. An idle plane flushes at once.
      if (this.#flushedThisTurn) setImmediate(() => void this.#drain());
      else void this.#drain();
    }
    return done;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const { waiters, run } = this.#takeBatch();
      try {
        await run();
        this.#markFlushed();
        for (const waiter of waiters) waiter.resolve();
      } catch (cause) {
        this.#failure = new Error(
          `event log write failed, so nothing after it can be acknowledged; restart the plane (${(cause as Error).message})`,
          { cause },
        );
        for (const waiter of [...waiters, ...this.#queue.splice(0)]) waiter.reject(this.#failure);
      }
    }
    this.#draining = false;
  }

  #markFlushed(): void {
    if (this.#flushedThisTurn) return;
    this.#flushedThisTurn = true;
    setImmediate(() => (this.#flushedThisTurn = false));
  }

  /** A task alone, or the longest run of writes at the head of the queue. */
  #takeBatch(): { waiters: Waiter[]; run: () => Promise<void> } {
    const head = this.#queue[0]!;
    if ('task' in head) {
      this.#queue.shift();
      return { waiters: [head], run: head.task };
    }
    const end = this.#queue.findIndex((entry) => 'task' in entry);
    const writes = this.#queue.splice(0, end === -1 ? this.#queue.length : end) as Write[];
    return { waiters: writes, run: () => this.#flush(Buffer.concat(writes.map((write) => write.data))) };
  }
}
