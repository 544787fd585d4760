// The files through which the bench and its in-host module (bench/editor/in-host.ts) take turns:
// the bench writes `files` and later `go` and `done`; the extension host writes `listening` and
// `provider`.
export const SIGNALS = {
  /** The workspace's files, relative to its root (JSON array), written before VS Code opens. */
  files: 'files.json',
  /** The in-host module watches the probe file's decoration: the bench may start claiming. */
  listening: 'listening',
  /** The bench is done with the Explorer: time the provider now. */
  go: 'go',
  /** The provider's figures (ProviderFigures as JSON). */
  provider: 'provider.json',
  /** The bench needs the window no more: the in-host run may end (and with it the extension host). */
  done: 'done',
} as const;

/** The extension fired a decoration change for the probe file at `at` (Date.now()); its badge then. */
export interface ProbeChange {
  at: number;
  badge: string;
}

export interface ProviderFigures {
  vscodeVersion: string;
  files: number;
  folders: number;
  claims: number;
  /** Files that got a badge in the cold pass, and in the warm one (the same, or something is off). */
  badged: number;
  warmBadged: number;
  /** First ask for each file, a folder's files at once: per folder, its time over its file count. */
  cold: { totalUs: number; perFileUs: number[] };
  /** Every answer cached in the extension: each call timed alone. */
  warm: { totalUs: number; perCallUs: number[] };
  /** The probe's decoration changes during the bench's first badge cycles. */
  probeChanges: ProbeChange[];
  /** The extension's work during the first badge cycles (and the churn, if any). */
  work: EditorWork;
}

/** What the extension did between `listening` and `go`: changes it was sent and updates it made. */
export interface EditorWork {
  /** fleet/didChangeFleet notifications, and the records (agents, claims, work items) they carried. */
  changes: number;
  records: number;
  wholeStates: number;
  /** URIs the decoration provider told VS Code to repaint. */
  decorationUris: number;
  /** Tree rows named for refresh, whole-tree refreshes, and tree items built, over the Fleet views. */
  rowsRefreshed: number;
  fullRefreshes: number;
  itemsBuilt: number;
}
