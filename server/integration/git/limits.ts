/** Bounds of the plane's git runs: a slow or huge repository costs a bounded wait, never the loop. */
export const GIT_LIMITS = {
  /** A ref lookup or merge base: answered from the object store in milliseconds. */
  quickMs: 10_000,
  /** A diff, a worktree snapshot (hashes edited files) or a merge-tree. */
  heavyMs: 60_000,
  /** Output of a lookup (a commit id, a path). */
  quickBytes: 64 * 1024,
  /** Output of a path listing: 5,000 paths of up to 4 KiB each fit. */
  listingBytes: 20 * 1024 * 1024,
} as const;
