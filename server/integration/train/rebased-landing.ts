import { GIT_LIMITS } from '../git/limits.js';
import { gitOutput, runGit } from '../git/run-git.js';
import { patchIds, RECENT_TARGET_COMMITS } from './patch-ids.js';

const quick = { timeoutMs: GIT_LIMITS.quickMs, maxOutputBytes: GIT_LIMITS.quickBytes };

/**
 * Commits of a branch matched one by one on the target. The target side is already bounded (its
 * last RECENT_TARGET_COMMITS commits since the merge-base, read once for the squash check too), so
 * a longer branch could never be matched whole: it is not looked at (`fleet land --done` covers it).
 */
const MAX_BRANCH_COMMITS = RECENT_TARGET_COMMITS;

/** A branch of several commits found rebased onto the target: the target's `onto..commit` carries them all. */
export interface RebasedLanding {
  commit: string;
  onto: string;
}

/**
 * Whether the branch's own commits `base..commit` (two or more) landed rebased onto the target, by
 * hand (`git rebase` and a fast-forward) or by a forge's "rebase and merge", which rewrite every
 * commit: each of them has a commit of the same stable patch id among `recent` (the target's
 * commits since `base`, newest first), and those commits follow one another on the target's
 * first-parent line, so reverting `onto..commit` undoes exactly them. Only some of them there (a
 * partial cherry-pick), or others between them: not landed.
 */
export async function rebasedLanding(repository: string, base: string, commit: string, recent: ReadonlyMap<string, string>): Promise<RebasedLanding | undefined> {
  const count = await ownCommitCount(repository, base, commit);
  // One commit is the squash check's (its diff is the branch's whole diff).
  if (count === undefined || count < 2 || count > MAX_BRANCH_COMMITS) return undefined;
  const own = await patchIds(repository, ['log', '-p', '--no-merges', '--no-ext-diff', '--no-textconv', `-n${MAX_BRANCH_COMMITS}`, '--format=commit %H', `${base}..${commit}`]);
  // Fewer patch ids than commits: an empty commit (it has none) or output cut at its bound; a match of the rest would be partial.
  const head = own.get(commit);
  if (own.size !== count || head === undefined) return undefined;
  // A rebase keeps the order: the landing ends with the target commit carrying the branch head's patch.
  for (const [last, patch] of recent) {
    if (patch !== head) continue;
    const chain = await firstParents(repository, last, count + 1);
    if (chain.length === count + 1 && carriesExactly(chain.slice(0, count), own, recent)) return { commit: last, onto: chain[count]! };
  }
  return undefined;
}

/** Whether the target commits `landed` carry the branch's patches `own`, each once (a multiset match). */
function carriesExactly(landed: readonly string[], own: ReadonlyMap<string, string>, recent: ReadonlyMap<string, string>): boolean {
  const wanted = new Map<string, number>();
  for (const patch of own.values()) wanted.set(patch, (wanted.get(patch) ?? 0) + 1);
  for (const target of landed) {
    // Not among the target's recent non-merge commits since the merge-base: a merge, or older than the branch.
    const patch = recent.get(target);
    const left = patch === undefined ? 0 : (wanted.get(patch) ?? 0);
    if (left === 0) return false;
    wanted.set(patch!, left - 1);
  }
  return true;
}

/** The branch's own non-merge commits since `base`, or undefined when git cannot tell. */
async function ownCommitCount(repository: string, base: string, commit: string): Promise<number | undefined> {
  const run = await runGit(repository, ['rev-list', '--count', '--no-merges', '--end-of-options', `${base}..${commit}`], quick);
  const count = Number(run.stdout.toString().trim());
  return run.code === 0 && Number.isInteger(count) ? count : undefined;
}

/** `commit` and its first parents, newest first, `n` of them at most. */
async function firstParents(repository: string, commit: string, n: number): Promise<string[]> {
  const out = (await gitOutput(repository, ['rev-list', '--first-parent', `-n${n}`, '--end-of-options', commit], quick)).stdout.toString().trim();
  return out === '' ? [] : out.split('\n');
}
