import type { DiffSummary } from '../../../contracts/index.js';
import { gitIn } from './worktree-facts.js';

/** How many changed files a summary lists; `more` counts the rest. */
const LISTED = 200;

/**
 * What changed in a builder's worktree since the commit its item started from, as git sees it
 * (seed 001: a BuildArtifact's diff summary; the touched files are the builder's claim, this is the
 * repository's word): lines added and removed per tracked file, committed or not, and new files
 * git does not track yet. Undefined when git cannot tell (not a repository, the commit unknown).
 */
export async function diffSummaryOf(worktree: string, since: string): Promise<DiffSummary | undefined> {
  const [numstat, untracked] = await Promise.all([gitIn(worktree, ['diff', '--numstat', '-z', since, '--']), gitIn(worktree, ['ls-files', '--others', '--exclude-standard', '-z'])]);
  if (numstat === undefined) return undefined;
  const files = [...parseNumstat(numstat), ...(untracked ?? '').split('\0').filter((path) => path !== '').map((path) => ({ path, untracked: true }))];
  return { since, files: files.slice(0, LISTED), more: Math.max(0, files.length - LISTED) };
}

/**
 * `git diff --numstat -z`: "ADDED\tREMOVED\tPATH\0" per file ("-" for binary), and for a rename
 * "ADDED\tREMOVED\t\0FROM\0TO\0", listed under the path it has now.
 */
function parseNumstat(output: string): { path: string; added?: number; removed?: number }[] {
  const fields = output.split('\0');
  const stats = [];
  for (let i = 0; i < fields.length; i++) {
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(fields[i]!);
    if (!match) continue;
    let path = match[3]!;
    if (path === '') {
      path = fields[i + 2] ?? '';
      i += 2;
    }
    stats.push({ path, ...(match[1] !== '-' && { added: Number(match[1]) }), ...(match[2] !== '-' && { removed: Number(match[2]) }) });
  }
  return stats;
}
