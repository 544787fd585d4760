import type { State } from '../../core/state.js';
import { scopeIdOf } from '../../plane/repository/scope-id-of.js';
import { defaultBranchRef } from '../git/refs.js';

/**
 * The ref an agent's work is integrated into, read through this one function: the branch the
 * train lands on (`fleet integrate configure --target`), else the repository's default branch
 * (origin/HEAD when set, else main, else master). `repository` is the git common dir.
 */
export function integrationTarget(state: State, worktree: string, repository: string): Promise<string | undefined> {
  const configured = state.integrationConfigs.get(scopeIdOf(repository))?.target;
  return configured === undefined ? defaultBranchRef(worktree) : Promise.resolve(`refs/heads/${configured}`);
}
