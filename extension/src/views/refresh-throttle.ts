import type * as vscode from 'vscode';

/**
 * Gathers a view's row refreshes and hands them on at most once per `intervalMs`: the first
 * after a quiet spell goes on the next turn, the rest of a burst wait for the interval and go as
 * one. Every refresh re-renders the rows it names (closing their tooltips), and a group's refresh
 * builds its children again, so a churning fleet must not cost one per event.
 *
 * Nothing goes while VS Code is reading the tree (asking for children level by level, as when the
 * view is first shown): a refresh in the middle of such a read runs in the workbench beside it,
 * and its tree (1.100–1.104) then hands one node's children to another, draws rows over each other
 * and drops the ones after ("Data tree node not found"). A refresh waits until VS Code's reads
 * have been quiet for `intervalMs`.
 */
export class RefreshThrottle<Row> implements vscode.Disposable {
  private readonly rows = new Set<Row>();
  private whole = false;
  private timer: NodeJS.Timeout | undefined;
  private last = -Infinity;
  private lastRead = -Infinity;

  constructor(
    private readonly fire: (rows: Row[] | undefined) => void,
    private readonly intervalMs: number,
  ) {}

  /**
   * `rows` to refresh, or undefined for the whole tree: that goes as soon as VS Code is not
   * reading (a new whole state is rare, and what the person waits for after a reconnect) and
   * covers every row asked for.
   */
  request(rows: Iterable<Row> | undefined): void {
    if (rows === undefined) {
      this.whole = true;
      this.dispose();
    } else {
      for (const row of rows) this.rows.add(row);
    }
    this.schedule();
  }

  /** VS Code read the tree (or is about to, the view being shown): what is asked for now waits until its reads are over. */
  read(): void {
    this.lastRead = Date.now();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer) return;
    const due = Math.max(this.whole ? -Infinity : this.last + this.intervalMs, this.lastRead + this.intervalMs);
    this.timer = setTimeout(() => this.flush(), Math.max(0, due - Date.now()));
  }

  private flush(): void {
    this.timer = undefined;
    // VS Code read again while this waited: wait for that read to be over too.
    if (Date.now() < this.lastRead + this.intervalMs) return this.schedule();
    this.last = Date.now();
    const rows = this.whole ? undefined : [...this.rows];
    this.whole = false;
    this.rows.clear();
    if (rows === undefined || rows.length > 0) this.fire(rows);
  }
}
