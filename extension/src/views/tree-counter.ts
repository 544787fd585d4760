import * as vscode from 'vscode';

export type TreeName = 'roster' | 'territory' | 'work';

/** One view's work so far: what it told VS Code to refresh, and the items VS Code then had it build. */
export interface TreeWork {
  /** Rows named in onDidChangeTreeData. */
  rowsRefreshed: number;
  /** onDidChangeTreeData with no rows: the whole tree again. */
  fullRefreshes: number;
  /** getTreeItem calls (VS Code merges refreshes that come close together, so fewer than asked). */
  itemsBuilt: number;
}

/**
 * Counts each Fleet view's work: the in-host tests and the bench read it to check that the work
 * per event follows what changed, not the size of the fleet.
 */
export class TreeCounter implements vscode.Disposable {
  private readonly work: Record<TreeName, TreeWork> = { roster: empty(), territory: empty(), work: empty() };
  private readonly built = new vscode.EventEmitter<TreeName>();
  readonly onDidBuild = this.built.event;

  /** A view asks VS Code to refresh `rows` (undefined: everything). */
  refreshed(tree: TreeName, rows: readonly unknown[] | undefined): void {
    if (rows) this.work[tree].rowsRefreshed += rows.length;
    else this.work[tree].fullRefreshes++;
  }

  count(tree: TreeName): void {
    this.work[tree].itemsBuilt++;
    this.built.fire(tree);
  }

  get snapshot(): Readonly<Record<TreeName, TreeWork>> {
    return { roster: { ...this.work.roster }, territory: { ...this.work.territory }, work: { ...this.work.work } };
  }

  dispose(): void {
    this.built.dispose();
  }
}

function empty(): TreeWork {
  return { rowsRefreshed: 0, fullRefreshes: 0, itemsBuilt: 0 };
}
