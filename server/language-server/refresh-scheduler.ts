/**
 * When the language server tells the editor what the plane's events changed: `now` (next turn of
 * the event loop, so a burst of events read in one go costs one notification) for what a person
 * sees at once, `soon` (at most once per batch interval) for the chatter: heartbeats only move
 * "seen 3 s ago" times, and those tick in the views anyway.
 */
export class FlushScheduler {
  private immediate: NodeJS.Immediate | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly flush: () => void,
    private readonly batchMs = 1000,
  ) {}

  now(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.immediate ??= setImmediate(() => this.run());
  }

  soon(): void {
    if (this.immediate) return;
    this.timer ??= setTimeout(() => this.run(), this.batchMs);
  }

  dispose(): void {
    clearImmediate(this.immediate);
    clearTimeout(this.timer);
    this.immediate = undefined;
    this.timer = undefined;
  }

  private run(): void {
    this.dispose();
    this.flush();
  }
}
