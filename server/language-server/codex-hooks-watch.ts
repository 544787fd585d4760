import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { CodexRepositoryHooks } from '../../contracts/lsp.js';
import { CODEX_CONFIG_READ_LIMIT } from '../hooks/codex-hook-state.js';
import { codexHooksTrust } from '../hooks/codex-hook-trust.js';
import { codexHooksPath } from '../hooks/codex-hooks-file.js';
import { inRepository } from '../gate/repository-directory.js';
import { codexConfigPath } from '../mcp/runtime-config.js';

/** hooks.json and config.toml are often written twice in a row (an editor, Codex's /hooks): one look after the burst. */
const SETTLE_MS = 250;

/**
 * Whether Codex runs the fleet's hooks for each repository of the workspace, computed here, on the
 * plane's machine, as `fleet status` does, and told again (only when it changed) each time
 * $CODEX_HOME/hooks.json or config.toml change. Codex skips an untrusted hook without a word, so
 * the editor says it. Read only: trusting is the person's act in Codex's /hooks.
 */
export class CodexHooksWatch {
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private told: string | undefined;

  constructor(
    private readonly worktrees: () => string[],
    private readonly publish: (repositories: CodexRepositoryHooks[]) => void,
    private readonly log: (message: string) => void,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** Watches Codex's home (both files live there; watching the folder sees them created and replaced) and looks once. */
  start(): void {
    const files = new Set([basename(codexHooksPath(this.env)), basename(codexConfigPath(this.env))]);
    const folder = dirname(codexHooksPath(this.env));
    try {
      this.watcher = watch(folder, { persistent: false }, (_event, name) => {
        if (name === null || files.has(name.toString())) this.changed();
      });
      this.watcher.on('error', (error) => this.log(`watching ${folder} for Codex hook trust stopped: ${error.message}`));
    } catch (error) {
      this.log(`not watching ${folder} for Codex hook trust (${(error as Error).message}): Codex has no hooks there to trust`);
    }
    this.changed();
  }

  /** Something it depends on changed (a file, the workspace folders): look again once things settle. */
  changed(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), SETTLE_MS);
  }

  private refresh(): void {
    const repositories = this.readable() ? this.worktrees().flatMap((worktree) => this.trustFor(worktree)) : [];
    const text = JSON.stringify(repositories);
    if (text === this.told) return;
    this.told = text;
    this.publish(repositories);
  }

  /** hooks.json is read again on every change: past config.toml's bound, it is not read at all (and the log says so). */
  private readable(): boolean {
    const path = codexHooksPath(this.env);
    const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
    if (size <= CODEX_CONFIG_READ_LIMIT) return true;
    this.log(`not reading ${path} for Codex hook trust: ${size} bytes, over ${CODEX_CONFIG_READ_LIMIT}; run fleet status in the repository instead`);
    return false;
  }

  private trustFor(worktree: string): CodexRepositoryHooks[] {
    try {
      const trust = codexHooksTrust((root) => inRepository(worktree, root), this.env);
      if (!trust) return [];
      return [{ worktree, hooksFile: trust.hooksFile, hooks: trust.hooks.map(({ event, trust: hookTrust }) => ({ event, trust: hookTrust })), summary: trust.summary }];
    } catch (error) {
      this.log(`could not check Codex's trust in the fleet's hooks for ${worktree}: ${(error as Error).message}`);
      return [];
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
  }
}
