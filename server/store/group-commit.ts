// Group commit: one write + fdatasync makes a whole batch of appends durable. Appends made in one
// turn of the event loop, or while a flush is in flight, wait in the queue and go out together as
// the next batch. Batches grow with load by themselves, with no timer adding latency.

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
      // After the poll phase: every request that arrived in this turn of the event loop has been
      // handled and queued its write by then, so they share one flush. While that flush waits for
      // the disk, the loop goes on serving, and what arrives meanwhile forms the next batch.
      this.#draining = true;
      setImmediate(() => void this.#drain());
    }
    return done;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const { waiters, run } = this.#takeBatch();
      try {
        await run();
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
