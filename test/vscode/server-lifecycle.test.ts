// The language server's lifecycle (issue 26, item 8) on the minimum and the current engine, in the
// extension host ("lifecycle" phase of the in-host suite, test/vscode/suite/lifecycle-tests.ts):
// restarts asked for in a row while VS Code asks for hovers, code actions and decorations leave one
// server that answers, and nothing in the window's logs says a start or a request failed.
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ENGINE_VERSIONS, selectedEngineIds } from './harness/index.js';
import { bundleForTests, makeHome, makeWorkspace, removeDir, stopPlane } from './support/fleet-fixtures.js';
import { runInHostPhase } from './support/in-host-phase.js';

const EXPECTED_TESTS = 1;

before(() => bundleForTests());

for (const id of selectedEngineIds()) {
  describe(`The language server restarts cleanly, VS Code ${ENGINE_VERSIONS[id].vscode} (${id})`, { timeout: 400_000 }, () => {
    const home = makeHome();
    const workspace = makeWorkspace();
    const resultsFile = join(home, '..', `${home.split('/').pop()}-lifecycle-results.json`);
    after(async () => {
      await stopPlane(home);
      removeDir(home);
      removeDir(workspace);
      removeDir(resultsFile);
    });

    test('restarts in a row under requests, inside the extension host', async () => {
      // The extension host's own report of an unhandled rejection reaches the workbench's log, not a file.
      await runInHostPhase({ engine: id, phase: 'lifecycle', home, workspace, resultsFile, expectedTests: EXPECTED_TESTS, refusedLogLines: /Starting server failed|Client is not running/ });
    });
  });
}
