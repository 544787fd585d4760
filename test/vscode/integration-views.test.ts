// Write-sets and the conflict forecast in the editor (issue 23), on the minimum and the current
// engine: the "integration" phase of the in-host suite (test/vscode/suite/integration-tests.ts) in a
// window of its own, against a real plane in a temp FLEET_HOME and real git worktrees: the Explorer's
// `⇄`, the Territory view's write-set and conflict rows, and its capped claim list.
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ENGINE_VERSIONS, selectedEngineIds } from './harness/index.js';
import { bundleForTests, makeHome, makeWorkspace, removeDir, stopPlane } from './support/fleet-fixtures.js';
import { runInHostPhase } from './support/in-host-phase.js';

const EXPECTED_TESTS = 5;

before(() => bundleForTests());

for (const id of selectedEngineIds()) {
  describe(`Write-sets and forecast conflicts in VS Code ${ENGINE_VERSIONS[id].vscode} (${id})`, { timeout: 300_000 }, () => {
    const home = makeHome();
    const workspace = makeWorkspace();
    const resultsFile = join(home, '..', `${home.split('/').pop()}-integration-results.json`);
    after(async () => {
      await stopPlane(home);
      removeDir(home);
      removeDir(workspace);
      removeDir(resultsFile);
    });

    test('the ⇄ decoration, Territory\'s write-set and conflict rows, and its capped claims, inside the extension host', async () => {
      await runInHostPhase({ engine: id, phase: 'integration', home, workspace, resultsFile, expectedTests: EXPECTED_TESTS });
    });
  });
}
