// The integration train in the editor (issue 24 item 5): the "train" phase of the in-host suite
// (test/vscode/suite/train-tests.ts) in a window of its own, against a real plane in a temp
// FLEET_HOME and real git: agents' branches landed by the plane's train, shown in the Work view
// (building with its output, queued, landed with the merge commit, failed), the Explorer (files
// awaiting landing) and Needs You (what could not land).
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ENGINE_VERSIONS, selectedEngineIds } from './harness/index.js';
import { bundleForTests, makeHome, makeWorkspace, removeDir, stopPlane } from './support/fleet-fixtures.js';
import { runInHostPhase } from './support/in-host-phase.js';

const EXPECTED_TESTS = 4;

before(() => bundleForTests());

for (const id of selectedEngineIds()) {
  describe(`The train in VS Code ${ENGINE_VERSIONS[id].vscode} (${id})`, { timeout: 300_000 }, () => {
    const home = makeHome();
    const workspace = makeWorkspace();
    const resultsFile = join(home, '..', `${home.split('/').pop()}-train-results.json`);
    after(async () => {
      await stopPlane(home);
      removeDir(home);
      removeDir(workspace);
      removeDir(resultsFile);
    });

    test('the Train in the Work view, files awaiting landing in the Explorer, what could not land in Needs You, inside the extension host', async () => {
      await runInHostPhase({ engine: id, phase: 'train', home, workspace, resultsFile, expectedTests: EXPECTED_TESTS, refusedLogLines: /is already registered/ });
    });
  });
}
