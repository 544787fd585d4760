export type TreeName = 'roster' | 'territory' | 'work';

/**
 * How many tree items each view has built (getTreeItem calls): the in-host tests and the bench
 * read it to check that the work per event follows what changed, not the size of the fleet.
 */
export class TreeCounter {
  private readonly counts: Record<TreeName, number> = { roster: 0, territory: 0, work: 0 };

  count(tree: TreeName): void {
    this.counts[tree]++;
  }

  get snapshot(): Readonly<Record<TreeName, number>> {
    return { ...this.counts };
  }
}
