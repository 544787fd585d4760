import { AREAS, SHARED_FILES, SRC_FILES, srcFile } from './tree.js';

/** Share of cycles that go for one of the shared hot files instead of the agent's own package. */
export const OVERLAP_SHARE = 0.1;

/**
 * How long an agent holds a shared file before releasing it (its own files it releases at once).
 * Real agents hold a claim while they edit; without some hold, two grants of one file would almost
 * never be held at the same moment, and a double grant could go unseen even where one happened.
 */
export const SHARED_HOLD_MS = 2;
const shared = new Set(SHARED_FILES);
export const isShared = (path: string): boolean => shared.has(path);

/**
 * The throughput workload of agent `index`: claim one file, release it, repeat. 90% of the files
 * lie in the agent's own package (disjoint from every other agent), 10% are the repository's
 * shared files, which all agents go for and so collide on (and hold for SHARED_HOLD_MS).
 * Identical for the plane and the baselines.
 */
export function cyclePaths(index: number, random: () => number, overlapShare = OVERLAP_SHARE): () => string {
  return () => {
    if (random() < overlapShare) return SHARED_FILES[Math.floor(random() * SHARED_FILES.length)]!;
    const area = AREAS[Math.floor(random() * AREAS.length)]!;
    return srcFile(index, area, Math.floor(random() * SRC_FILES));
  };
}
