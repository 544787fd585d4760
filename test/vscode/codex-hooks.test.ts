// Codex's trust in the fleet's hooks, said in the real VS Code (issue 22, item 4), on the minimum
// and the current engine: `fleet install-hooks` (the bundled CLI, as the extension installs it)
// writes the Codex hooks to a temp CODEX_HOME with no trust there; the window warns, naming the
// repository and /hooks, and clears once config.toml holds the person's trust (in-host phase
// "codexHooks", test/vscode/suite/codex-hook-tests.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ENGINE_VERSIONS, selectedEngineIds } from './harness/index.js';
import { bundleForTests, CLI_BUNDLE, makeHome, makeWorkspace, removeDir, stopPlane } from './support/fleet-fixtures.js';
import { runInHostPhase } from './support/in-host-phase.js';

before(() => bundleForTests());

for (const id of selectedEngineIds()) {
  describe(`Codex hook trust in the editor, VS Code ${ENGINE_VERSIONS[id].vscode} (${id})`, { timeout: 300_000 }, () => {
    const home = makeHome();
    const workspace = makeWorkspace();
    const codexHome = realpathSync(mkdtempSync(join(tmpdir(), 'fleet-vscode-codex-')));
    const resultsFile = join(home, '..', `${home.split('/').pop()}-codex-results.json`);
    after(async () => {
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
  });
}
