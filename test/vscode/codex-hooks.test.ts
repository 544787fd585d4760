// Codex's trust in the fleet's hooks, said in the real VS Code (issue 22, item 4), on the minimum
// and the current engine: `fleet install-hooks` (the bundled CLI, as the extension installs it)
// writes the Codex hooks to a temp CODEX_HOME with no trust there; the window warns, naming the
// repository and /hooks, and clears once config.toml holds the person's trust: inside the extension
// host (phase "codexHooks", test/vscode/suite/codex-hook-tests.ts), then on screen as a person sees
// it (Playwright): the notification and its Open Codex button, the status bar item clearing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ENGINE_VERSIONS, loadEngine, openWorkbench, selectedEngineIds, type Workbench } from './harness/index.js';
import { trustTables } from '../support/codex-trust.js';
import { bundleForTests, CLI_BUNDLE, makeHome, makeWorkspace, removeDir, REPO_ROOT, stopPlane } from './support/fleet-fixtures.js';
import { runInHostPhase } from './support/in-host-phase.js';

before(() => bundleForTests());

for (const id of selectedEngineIds()) {
  describe(`Codex hook trust in the editor, VS Code ${ENGINE_VERSIONS[id].vscode} (${id})`, { timeout: 300_000 }, () => {
    const home = makeHome();
    const workspace = makeWorkspace();
    const codexHome = realpathSync(mkdtempSync(join(tmpdir(), 'fleet-vscode-codex-')));
    const resultsFile = join(home, '..', `${home.split('/').pop()}-codex-results.json`);
    let workbench: Workbench | undefined;
    after(async () => {
      await workbench?.close();
      await stopPlane(home);
      removeDir(home);
      removeDir(workspace);
      removeDir(codexHome);
      removeDir(resultsFile);
    });

    test('untrusted Codex hooks warn, naming the repository and /hooks; trusted, the warning clears', async () => {
      execFileSync(process.execPath, [CLI_BUNDLE, 'install-hooks', '--no-git', '--no-claude'], { cwd: workspace, env: { ...process.env, FLEET_HOME: home, CODEX_HOME: codexHome }, stdio: 'pipe' });
      await runInHostPhase({ engine: id, phase: 'codexHooks', home, workspace, resultsFile, expectedTests: 3, env: { CODEX_HOME: codexHome } });
    });

    test('on screen: the notification names the repository and /hooks and offers Open Codex; trusted, the status bar clears', async () => {
      writeFileSync(join(codexHome, 'config.toml'), ''); // no trust at all, as after a fresh fleet init
      workbench = await openWorkbench({ engine: loadEngine(id), workspacePath: workspace, extensionPath: REPO_ROOT, env: { FLEET_HOME: home, FLEET_PORT: '0', CODEX_HOME: codexHome } });
      const { page } = workbench;
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Codex hooks' }).first();
      await toast.waitFor({ timeout: 90_000 });
      const said = await toast.innerText();
      assert.ok(said.includes(basename(workspace)), `the notification names the repository: ${said}`);
      assert.match(said, /NOT trusted yet.*run \/hooks/s);
      const flagged = page.locator('.statusbar-item', { hasText: 'Codex hooks untrusted' }).first();
      await flagged.waitFor({ timeout: 20_000 });

      // Open Codex: a terminal in the repository, named for what to do there.
      await toast.getByRole('button', { name: 'Open Codex' }).click();
      await page.locator('.notifications-toasts .notification-toast', { hasText: 'run /hooks' }).first().waitFor({ timeout: 20_000 });
      await page.locator('.part.panel', { hasText: 'Codex: trust the fleet hooks' }).first().waitFor({ timeout: 20_000 });

      writeFileSync(join(codexHome, 'config.toml'), trustTables(codexHome, workspace, (_event, hash) => hash));
      await flagged.waitFor({ state: 'detached', timeout: 20_000 });
      await page.locator('.statusbar-item', { hasText: 'Fleet: running' }).first().waitFor({ timeout: 20_000 });
    });
  });
}
