import type { CodexRepositoryHooks } from '../../contracts/lsp.js';

/** Codex skips these hooks until the person trusts them again in its /hooks: the gate sees its agents at commit only. */
export function needsTrust(repository: CodexRepositoryHooks): boolean {
  return repository.hooks.some((hook) => hook.trust === 'untrusted' || hook.trust === 'modified');
}

/** The repository's name as a person knows it: its folder. */
export function repositoryName(repository: CodexRepositoryHooks): string {
  return repository.worktree.split(/[\\/]/).filter(Boolean).pop() ?? repository.worktree;
}
