// The editor under a live fleet, on the minimum and the current engine: the "live" phase of the
// in-host suite (test/vscode/suite/live-tests.ts) in a window of its own, against a real plane in a
// temp FLEET_HOME: distinct marks, shared claims, folder roll-up, per-event work while a fleet churns,
// and a long work queue: bounded groups, and no "already registered" tree item while items move.
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ENGINE_VERSIONS, selectedEngineIds } from './harness/index.js';
import { bundleForTests, makeHome, makeWorkspace, removeDir, stopPlane } from './support/fleet-fixtures.js';
import { runInHostPhase } from './support/in-host-phase.js';

const EXPECTED_TESTS = 6;

before(() => bundleForTests());

for (const id of selectedEngineIds()) {
  describe(`Fleet views under a live fleet in VS Code ${ENGINE_VERSIONS[id].vscode} (${id})`, { timeout: 300_000 }, () => {
    const home = makeHome();
    const workspace = makeWorkspace();
    const resultsFile = join(home, '..', `${home.split('/').pop()}-live-results.json`);
    after(async () => {
      await stopPlane(home);
      removeDir(home);
      removeDir(workspace);
      removeDir(resultsFile);
    });

    test('marks, shared claims, roll-up, per-event work and a long queue, inside the extension host', async () => {
      // VS Code refuses a tree item whose id another row still holds: an item moving between groups under churn must never hit it.
      await runInHostPhase({ engine: id, phase: 'live', home, workspace, resultsFile, expectedTests: EXPECTED_TESTS, refusedLogLines: /is already registered/ });
    });
  });
}
