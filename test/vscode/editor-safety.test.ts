// The editor never costs an agent its work nor the person their window (issue 26, items 1, 2, 5, 6),
// on the minimum and the current engine. In the extension host ("editor" phase of the in-host suite,
// test/vscode/suite/editor-safety-tests.ts): a holder's writes to an open file bring no warning and
// no Revert over them; Revert after an ownership change; the plane down. On screen (Playwright):
// "Fleet: Pause" + Enter before the plane is connected runs Fleet's Pause, which says why it did
// nothing and offers to connect; the window stays alive and Pause works once connected (and, paused
// already, is still Fleet's Pause, which says so).
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ENGINE_VERSIONS, loadEngine, openWorkbench, selectedEngineIds, type Workbench } from './harness/index.js';
import { answerInputBox, paletteMatches, runFromPalette } from './support/command-palette.js';
import { bundleForTests, makeHome, makeWorkspace, removeDir, REPO_ROOT, stopPlane } from './support/fleet-fixtures.js';
import { runInHostPhase } from './support/in-host-phase.js';

const EXPECTED_TESTS = 6;

before(() => bundleForTests());

for (const id of selectedEngineIds()) {
  describe(`The editor costs nobody their work, VS Code ${ENGINE_VERSIONS[id].vscode} (${id})`, { timeout: 600_000 }, () => {
    const home = makeHome();
    const workspace = makeWorkspace();
    const resultsFile = join(home, '..', `${home.split('/').pop()}-editor-results.json`);
    let workbench: Workbench | undefined;
    after(async () => {
      await workbench?.close();
      await stopPlane(home);
      await stopPlane(join(home, 'palette'));
      removeDir(home);
      removeDir(workspace);
      removeDir(resultsFile);
    });

    test("holders' writes, Revert and the plane down, inside the extension host", async () => {
      await runInHostPhase({ engine: id, phase: 'editor', home, workspace, resultsFile, expectedTests: EXPECTED_TESTS });
    });

    test('"Fleet: Pause" + Enter before the plane is connected runs Fleet\'s Pause, which says so; the window stays alive', async () => {
      // A FLEET_HOME the plane cannot use yet (a file where its folder goes): the window stays unconnected until it is removed.
      const blocked = join(home, 'palette');
      writeFileSync(blocked, 'not a folder yet\n');
      const shots = join(REPO_ROOT, 'test-results', 'screenshots', ENGINE_VERSIONS[id].vscode);
      mkdirSync(shots, { recursive: true });
      workbench = await openWorkbench({ engine: loadEngine(id), workspacePath: workspace, extensionPath: REPO_ROOT, env: { FLEET_HOME: blocked, FLEET_PORT: '0' } });
      const { page } = workbench;
      await page.locator('.statusbar-item', { hasText: 'Fleet: plane unreachable' }).first().waitFor({ timeout: 90_000 });

      const ranked = await paletteMatches(page, 'Fleet: Pause');
      assert.equal(ranked[0], 'Fleet: Pause', `VS Code ranks first: ${ranked.join(' | ')}`);
      await page.keyboard.press('Enter');
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Fleet: Pause did nothing' }).first();
      await toast.waitFor({ timeout: 20_000 });
      const connect = toast.getByRole('button', { name: 'Connect to the Plane' });
      await connect.waitFor({ timeout: 10_000 });
      assert.match(await toast.innerText(), /not connected to the coordination plane/);
      await page.screenshot({ path: join(shots, 'pause-before-connect.png') });

      // The person clears the way and takes the offer: the window connects, and Pause now asks its reason.
      rmSync(blocked);
      await connect.click();
      await page.locator('.statusbar-item', { hasText: 'Fleet: running' }).first().waitFor({ timeout: 60_000 });
      assert.equal(await runFromPalette(page, 'Fleet: Pause'), 'Fleet: Pause');
      await answerInputBox(page, /Why is the fleet set to pause/, 'checking the window is alive');
      await page.locator('.statusbar-item', { hasText: 'Fleet: paused' }).first().waitFor({ timeout: 20_000 });

      // Paused already: "Fleet: Pause" + Enter is still Fleet's Pause, which says so and moves nothing.
      assert.equal(await runFromPalette(page, 'Fleet: Pause'), 'Fleet: Pause');
      await page.locator('.notifications-toasts .notification-toast', { hasText: 'The fleet is already paused' }).first().waitFor({ timeout: 20_000 });
    });
  });
}
