import { execFileSync } from 'node:child_process';

/**
 * Flushes every dirty page to disk before a measurement. Without it, the thousands of files the
 * suite has just written (the tree, a previous section's homes) are still being written back, and
 * every fdatasync of the next section pays for their journal commits: the figures then measure
 * the suite's own setup, not the system under test.
 */
export function settleDisk(): void {
  execFileSync('sync');
}
