// Codex's trust in the fleet's hooks, said in the editor (issue 22, item 4): the node side ran
// `fleet install-hooks` with CODEX_HOME a temp dir and no trust in config.toml. The window warns,
// naming the repository and /hooks; once the person's trust is in config.toml, as Codex's /hooks
// writes it, the warning clears; a hook trusted under another hash warns again.
import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CodexRepositoryHooks } from '../../../contracts/lsp.js';
import type { FleetNotice } from '../../../extension/src/notifications.js';
import { trustTables } from '../../support/codex-trust.js';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';
import { when } from './waits.js';

export function codexHookTests(fx: () => Fixture): void {
  const codexHome = process.env.CODEX_HOME ?? '';
  const configToml = join(codexHome, 'config.toml');
  const hooksHere = () => fx().api.codexHooks().find((repository) => repository.worktree === fx().workspace);
  const allTrusted = (repository: CodexRepositoryHooks | undefined) => repository !== undefined && repository.hooks.every((hook) => hook.trust === 'trusted') && repository;

  test('Codex hooks installed, not trusted: the status bar warns, naming the repository and /hooks', async () => {
    const { api, workspace } = fx();
    assert.ok(codexHome, 'CODEX_HOME reached the extension host');
    const untrusted = await when(api.onDidChangeCodexHooks, () => hooksHere(), 'the Codex hooks of the workspace');
    assert.deepEqual(untrusted.hooks.map((hook) => hook.trust), untrusted.hooks.map(() => 'untrusted'));
    assert.deepEqual(new Set(untrusted.hooks.map((hook) => hook.event)), new Set(['PreToolUse', 'PostToolUse', 'SessionStart', 'PermissionRequest']));
    assert.match(untrusted.summary, /NOT trusted.*open Codex and run \/hooks/);
    const bar = api.statusBar();
    assert.match(bar.text, /Codex hooks untrusted/);
    assert.ok(bar.tooltip.includes(basename(workspace)), `the tooltip names the repository: ${bar.tooltip}`);
    assert.match(bar.tooltip, /run \/hooks/);
    assert.equal(bar.warning, true);
  });

  test('trusted in config.toml as Codex writes it: the warning clears', async () => {
    const { api, workspace } = fx();
    appendFileSync(configToml, `\n${trustTables(codexHome, workspace, (_event, hash) => hash)}`);
    await when(api.onDidChangeCodexHooks, () => allTrusted(hooksHere()), 'every fleet Codex hook trusted');
    const bar = api.statusBar();
    assert.doesNotMatch(bar.text, /Codex hooks/);
    assert.doesNotMatch(bar.tooltip, /Codex hooks|\/hooks/);
  });

  test('a hook trusted under another hash (changed since): a notification naming the repository and /hooks', async () => {
    const { api, workspace } = fx();
    const notices: FleetNotice[] = [];
    const listening = api.onDidNotify((notice) => notice.kind === 'codexHooks' && notices.push(notice));
    try {
      writeFileSync(configToml, trustTables(codexHome, workspace, (event, hash) => (event === 'PreToolUse' ? `sha256:${'0'.repeat(64)}` : hash)));
      const notice = await when(api.onDidNotify, () => notices[0], 'the Codex hooks notification');
      assert.ok(notice.message.includes(workspace), `the notification names the repository: ${notice.message}`);
      assert.match(notice.message, /re-trust needed.*PreToolUse.*run \/hooks/);
      assert.equal(hooksHere()?.hooks.find((hook) => hook.event === 'PreToolUse')?.trust, 'modified');
      assert.match(api.statusBar().tooltip, /re-trust needed/);
    } finally {
      listening.dispose();
    }
  });
}
