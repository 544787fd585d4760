/**
 * Coalesces state refreshes: at most one runs at a time and one more is queued behind it however
 * many events arrive meanwhile, so a burst of events costs two round trips, not one per event.
 * `now` is for changes a file shows (claims, control); `soon` batches the chatter (heartbeats).
 */
export class RefreshScheduler {
  private running = false;
  private again = false;
  private later = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly refresh: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
    private readonly batchMs = 1000,
  ) {}

  now(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.loop();
  }

  soon(): void {
    if (this.running) {
      this.later = true;
      return;
    }
    this.timer ??= setTimeout(() => this.now(), this.batchMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async loop(): Promise<void> {
    this.running = true;
    try {
      do {
        this.again = false;
        try {
          await this.refresh();
        } catch (error) {
          this.onError(error);
        }
      } while (this.again);
    } finally {
      this.running = false;
    }
    if (this.later) {
      this.later = false;
      this.soon();
    }
  }
}
