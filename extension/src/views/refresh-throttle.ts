import type * as vscode from 'vscode';

/**
 * Gathers a view's row refreshes and hands them on at most once per `intervalMs`: the first
 * after a quiet spell goes on the next turn, the rest of a burst wait for the interval and go as
 * one. Every refresh re-renders the rows it names (closing their tooltips), and a group's refresh
 * builds its children again, so a churning fleet must not cost one per event.
 */
export class RefreshThrottle<Row> implements vscode.Disposable {
  private readonly rows = new Set<Row>();
  private whole = false;
  private timer: NodeJS.Timeout | undefined;
  private last = 0;

  constructor(
    private readonly fire: (rows: Row[] | undefined) => void,
    private readonly intervalMs: number,
  ) {}

  /**
   * `rows` to refresh, or undefined for the whole tree: that goes at once (a new whole state is
   * rare, and what the person waits for after a reconnect) and covers every row asked for.
   */
  request(rows: Iterable<Row> | undefined): void {
    if (rows === undefined) {
      this.dispose();
      this.whole = true;
      return this.flush();
    }
    for (const row of rows) this.rows.add(row);
    this.timer ??= setTimeout(() => this.flush(), Math.max(0, this.last + this.intervalMs - Date.now()));
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private flush(): void {
    this.timer = undefined;
    this.last = Date.now();
    const rows = this.whole ? undefined : [...this.rows];
    this.whole = false;
    this.rows.clear();
    if (rows === undefined || rows.length > 0) this.fire(rows);
  }
}
