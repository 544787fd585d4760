/** One line per kind of trouble per window, however often it happens within it. */
const WINDOW_MS = 10_000;

/**
 * Refusals and drops come in floods (that is what they defend against): logging each would turn
 * an attack on the sockets into one on the log. The first of a kind is logged at once; the rest of
 * its window are counted and summed up in one line when the window ends.
 */
export class ThrottledLog {
  private readonly windows = new Map<string, { more: number }>();

  constructor(private readonly log: (message: string) => void) {}

  /** Logs `kind` (with `detail`, the figures of this one time) unless it was logged within the window. */
  note(kind: string, detail = ''): void {
    const window = this.windows.get(kind);
    if (window) {
      window.more++;
      return;
    }
    this.log(`${kind}${detail}`);
    const opened = { more: 0 };
    this.windows.set(kind, opened);
    setTimeout(() => {
      this.windows.delete(kind);
      if (opened.more > 0) this.log(`${kind} (${opened.more} more time${opened.more === 1 ? '' : 's'} in the last ${WINDOW_MS / 1000} s)`);
    }, WINDOW_MS).unref();
  }
}
