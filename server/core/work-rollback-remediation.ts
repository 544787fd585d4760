import type { WorkRecord } from './orchestration-records.js';

/** How many touched files the text names; the build artifact lists them all. */
const NAMED_FILES = 20;

/**
 * How to apply a rollback the plane does not apply itself (seed 001, invariant 4): it reverts a
 * landing through the train, but never rewrites a builder's checkout or branch. The text names the
 * commit to return to and the files, as commands a person or an agent can run.
 */
export function rollbackRemediation(item: WorkRecord, ref: string): string {
  if (item.landedCommit !== undefined) {
    return `not applied by the plane: its landing ${item.landedCommit} stays on the target; revert it there (git revert ${item.landedCommit}, with -m 1 for a merge commit)`;
  }
  if (item.integration !== undefined) {
    const { branch } = item.integration;
    return `not applied by the plane, which does not rewrite branches: ${branch} did not land; return it to ${ref} (git checkout ${branch} && git reset --hard ${ref}) or delete it (git branch -D ${branch})`;
  }
  const files = item.artifact?.touchedFiles ?? [];
  if (files.length === 0) return `not applied by the plane, which does not undo a shared checkout: in the builder's worktree see what changed since ${ref} (git diff --stat ${ref}), then git checkout ${ref} -- those files`;
  const named = files.slice(0, NAMED_FILES).map(shellWord).join(' ');
  const more = files.length > NAMED_FILES ? ` (and ${files.length - NAMED_FILES} more files the build artifact lists)` : '';
  return `not applied by the plane, which does not undo a shared checkout: in the builder's worktree run git checkout ${ref} -- ${named}${more}, then commit`;
}

/** A path as one shell word. */
function shellWord(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
