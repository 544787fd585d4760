/** A short branch name (`main`) from a ref: a local branch, or a remote-tracking one (`refs/remotes/origin/main`). */
export function shortBranch(ref: string): string {
  if (ref.startsWith('refs/heads/')) return ref.slice('refs/heads/'.length);
  const remote = /^refs\/remotes\/[^/]+\/(.+)$/.exec(ref);
  return remote ? remote[1]! : ref;
}
