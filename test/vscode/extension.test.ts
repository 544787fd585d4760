// The Fleet extension inside a real VS Code, on the minimum and the current engine: the tests
// module (test/vscode/suite, bundled) runs in the extension host against a real plane in a temp
// FLEET_HOME. Then a second window opens on the same FLEET_HOME: same plane, same state.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { connectToPlane, readDiscovery } from '../../server/client/connect.js';
import { ENGINE_VERSIONS, loadEngine, runExtensionTests, selectedEngineIds } from './harness/index.js';
import { bundleForTests, CLI_BUNDLE, EXPECTED_IN_HOST_TESTS, makeHome, makeWorkspace, removeDir, REPO_ROOT, stopPlane, SUITE_MODULE } from './support/fleet-fixtures.js';
import type { SuiteResults } from './suite/runner.js';

before(() => bundleForTests());

for (const id of selectedEngineIds()) {
  describe(`Fleet extension in VS Code ${ENGINE_VERSIONS[id].vscode} (${id})`, { timeout: 420_000 }, () => {
    const home = makeHome();
    const workspace = makeWorkspace();
    const resultsFile = join(home, '..', `${home.split('/').pop()}-results.json`);
    after(async () => {
      await stopPlane(home);
      removeDir(home);
      removeDir(workspace);
      removeDir(resultsFile);
    });

    let expectedPid: number | undefined;
    if (id === 'current') {
      // On this engine a plane already runs when the window opens: the extension must join it.
      before(async () => {
        const client = await connectToPlane({ home, client: 'vscode-test', cliEntry: CLI_BUNDLE, env: { FLEET_PORT: '0' } });
        client.close();
        expectedPid = readDiscovery(home)!.discovery.pid;
      });
    }

    const runSuite = async (phase: 'full' | 'reopen', extraEnv: Record<string, string> = {}) => {
      const engine = loadEngine(id);
      const started = Date.now();
      const { exitCode, logs } = await runExtensionTests({
        engine,
        extensionPath: REPO_ROOT,
        testsPath: SUITE_MODULE,
        workspacePath: workspace,
        env: { FLEET_HOME: home, FLEET_PORT: '0', FLEET_TEST_WORKSPACE: workspace, FLEET_TEST_RESULTS: resultsFile, FLEET_TEST_PHASE: phase, ...extraEnv },
        timeoutMs: 240_000,
      });
      const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as SuiteResults;
      console.log(`[vscode ${engine.vscodeVersion}] ${phase} run: ${results.passed.length} passed, ${results.failed.length} failed in ${Date.now() - started} ms`);
      if (Object.keys(results.measurements).length > 0) console.log(`[vscode ${engine.vscodeVersion}] measurements: ${JSON.stringify(results.measurements)}`);
      for (const failure of results.failed) console.log(`[vscode ${engine.vscodeVersion}] ✖ ${failure.name}\n${failure.error}`);
      assert.equal(exitCode, 0, `the in-host tests failed on VS Code ${engine.vscodeVersion}:\n${logs.slice(-40).join('\n')}`);
      return results;
    };

    test('inside the extension host: plane, badge, diagnostic, hover, handoff request, guard, pause, operator, violation mark, work, digest, MCP, crash recovery', async () => {
      const results = await runSuite('full', expectedPid !== undefined ? { FLEET_TEST_EXPECT_PLANE_PID: String(expectedPid) } : {});
      assert.equal(results.failed.length, 0);
      assert.equal(results.passed.length, EXPECTED_IN_HOST_TESTS, `expected ${EXPECTED_IN_HOST_TESTS} in-host tests, ran ${results.passed.map((p) => p.name).join(', ')}`);
      assert.ok(readDiscovery(home), 'the plane outlived the window that started it');
    });

    test('a reopened window joins the same plane and finds the state it left', async () => {
      const found = readDiscovery(home);
      assert.ok(found, 'a plane is running from the first window');
      const starts = readFileSync(join(home, 'plane.log'), 'utf8').split('\n').filter((line) => /listening on 127\.0\.0\.1/.test(line)).length;
      const results = await runSuite('reopen', { FLEET_TEST_EXPECT_PLANE_PID: String(found.discovery.pid), FLEET_TEST_EXPECT_PLANE_STARTS: String(starts) });
      assert.equal(results.passed.length, 1);
      assert.equal(readDiscovery(home)?.discovery.pid, found.discovery.pid, 'still the same plane');
    });
  });
}
