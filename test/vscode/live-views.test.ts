// The editor under a live fleet, on the minimum and the current engine: the "live" phase of the
// in-host suite (test/vscode/suite/live-tests.ts) in a window of its own, against a real plane in a
// temp FLEET_HOME: distinct marks, shared claims, folder roll-up, per-event work while a fleet churns.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ENGINE_VERSIONS, loadEngine, runExtensionTests, selectedEngineIds } from './harness/index.js';
import { bundleForTests, makeHome, makeWorkspace, removeDir, REPO_ROOT, stopPlane, SUITE_MODULE } from './support/fleet-fixtures.js';
import type { SuiteResults } from './suite/runner.js';

const EXPECTED_TESTS = 5;

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

    test('marks, shared claims, roll-up and per-event work, inside the extension host', async () => {
      const engine = loadEngine(id);
      const { exitCode, logs } = await runExtensionTests({
        engine,
        extensionPath: REPO_ROOT,
        testsPath: SUITE_MODULE,
        workspacePath: workspace,
        env: { FLEET_HOME: home, FLEET_PORT: '0', FLEET_TEST_WORKSPACE: workspace, FLEET_TEST_RESULTS: resultsFile, FLEET_TEST_PHASE: 'live' },
        timeoutMs: 240_000,
      });
      const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as SuiteResults;
      console.log(`[vscode ${engine.vscodeVersion}] live: ${results.passed.length} passed, ${results.failed.length} failed; measurements ${JSON.stringify(results.measurements)}`);
      for (const failure of results.failed) console.log(`[vscode ${engine.vscodeVersion}] ✖ ${failure.name}\n${failure.error}`);
      assert.equal(exitCode, 0, `the in-host tests failed on VS Code ${engine.vscodeVersion}:\n${logs.slice(-40).join('\n')}`);
      assert.equal(results.passed.length, EXPECTED_TESTS);
    });
  });
}
