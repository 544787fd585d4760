import type { TrainEntry, WorkStatus } from '../../../contracts/index.js';
import type { WorkspaceTrain } from '../../../contracts/lsp.js';

/** The parts of a train the Work view lists, in the order a person reads them. */
export type TrainSectionName = 'building' | 'queued' | 'landed' | 'sentBack';

export const TRAIN_SECTIONS: { name: TrainSectionName; label: string; icon: string; color?: string; tooltip: string }[] = [
  { name: 'building', label: 'Building now', icon: 'sync~spin', tooltip: 'The batch merged onto the target and building: it lands only if the build is GREEN.' },
  { name: 'queued', label: 'Queued to land', icon: 'list-ordered', tooltip: 'Accepted work waiting for the next batch, pinned at the commit that was verified, oldest first.' },
  { name: 'landed', label: 'Landed', icon: 'git-merge', color: 'charts.green', tooltip: 'Landed on the target, each as one merge commit the plane built GREEN; newest first.' },
  { name: 'sentBack', label: 'Sent back', icon: 'debug-restart', color: 'list.warningForeground', tooltip: 'Left the train to be worked on again: a conflict or a RED build sent it back to its builder, a moved branch to review; newest first. What could not land at all is under "Failed to land".' },
];

/** Lines of the running build's output the view lists (the tooltip has the whole tail). */
export const LOG_LINES = 20;

/** The entries of one section: the plane's order (queued oldest first, the rest newest first). */
export function sectionEntries(train: WorkspaceTrain, section: TrainSectionName): TrainEntry[] {
  return train.entries.filter((entry) => SECTION_OF[entry.status] === section);
}

/**
 * Where each entry is listed. One that failed (no rework fixes it) is not: its item is in the Work
 * view's "Failed to land" group and in Needs You, one place for the one thing to decide.
 */
const SECTION_OF: Record<TrainEntry['status'], TrainSectionName | undefined> = { building: 'building', queued: 'queued', landed: 'landed', returned: 'sentBack', failed: undefined };

/** The work status whose Work view group would list an entry again: on the train (building, queued) is `landing`. */
const STATUS_OF: Partial<Record<TrainEntry['status'], WorkStatus>> = { building: 'landing', queued: 'landing', landed: 'landed' };

/**
 * The items the trains list, by the work status whose group would repeat them: the Train is the one
 * place for what moves along it, so the Landing and Landed groups list only what no Train shows
 * (another repository's work, a landing older than the train's list).
 */
export function itemsOnTrains(trains: Iterable<WorkspaceTrain>): Map<WorkStatus, Set<string>> {
  const listed = new Map<WorkStatus, Set<string>>();
  for (const train of trains) {
    for (const entry of train.entries) {
      const status = STATUS_OF[entry.status];
      if (status !== undefined) listed.set(status, (listed.get(status) ?? new Set()).add(entry.itemId));
    }
  }
  return listed;
}

/** "1 building · 3 queued · 2 landed · 1 sent back · 1 could not land (in Failed to land)". */
export function trainSummary(train: WorkspaceTrain): string {
  const count = (section: TrainSectionName) => sectionEntries(train, section).length;
  const failed = train.entries.filter((entry) => entry.status === 'failed').length;
  const parts = [
    [count('building'), 'building'],
    [count('queued'), 'queued'],
    [count('landed'), 'landed'],
    [count('sentBack'), 'sent back'],
    [failed, 'could not land (in Failed to land)'],
  ] as const;
  return parts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`).join(' · ') || 'empty';
}

/** The running build's last lines, for rows under "Building now". */
export function logLines(logTail: string | undefined): string[] {
  if (!logTail) return [];
  return logTail.split('\n').map((line) => line.trimEnd()).filter((line) => line !== '').slice(-LOG_LINES);
}

export const shortCommit = (commit: string): string => commit.slice(0, 10);
