import { existsSync } from 'node:fs';
import { sep } from 'node:path';

/**
 * The deepest existing directory or file along an absolute, normalised path (`/` at worst), and
 * the missing segments below it. Found by bisection: existence is monotone along a path, so a
 * client's path of thousands of missing segments costs a dozen stats rather than one per segment
 * (each as long as the path), which stalled the single-writer plane for seconds (issue 14).
 */
export function existingAncestor(absolute: string): { existing: string; missing: string[] } {
  const parts = absolute.split(sep);
  const prefix = (count: number) => parts.slice(0, count).join(sep) || sep;
  let low = 1;
  let high = parts.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (existsSync(prefix(mid))) low = mid;
    else high = mid - 1;
  }
  return { existing: prefix(low), missing: parts.slice(low) };
}
