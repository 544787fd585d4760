// The Fleet extension inside a real VS Code, on the minimum and the current engine: the tests
// module (test/vscode/suite, bundled) runs in the extension host against a real plane in a temp
// FLEET_HOME. Then a second window opens on the same FLEET_HOME: same plane, same state.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { connectToPlane, readDiscovery } from '../../server/client/connect.js';
import { ENGINE_VERSIONS, selectedEngineIds } from './harness/index.js';
import { bundleForTests, CLI_BUNDLE, EXPECTED_IN_HOST_TESTS, makeHome, makeWorkspace, removeDir, stopPlane } from './support/fleet-fixtures.js';
import { runInHostPhase } from './support/in-host-phase.js';

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

    const runSuite = (phase: 'full' | 'reopen', expectedTests: number, env: Record<string, string> = {}) => runInHostPhase({ engine: id, phase, home, workspace, resultsFile, expectedTests, env });

    test('inside the extension host: plane, badge, diagnostic, hover, handoff request, guard, pause, operator, violation mark, work, digest, MCP, crash recovery', async () => {
      const results = await runSuite('full', EXPECTED_IN_HOST_TESTS, expectedPid !== undefined ? { FLEET_TEST_EXPECT_PLANE_PID: String(expectedPid) } : {});
      assert.equal(results.failed.length, 0);
      assert.ok(readDiscovery(home), 'the plane outlived the window that started it');
    });

    test('a reopened window joins the same plane and finds the state it left', async () => {
      const found = readDiscovery(home);
      assert.ok(found, 'a plane is running from the first window');
      const starts = readFileSync(join(home, 'plane.log'), 'utf8').split('\n').filter((line) => /listening on 127\.0\.0\.1/.test(line)).length;
      await runSuite('reopen', 1, { FLEET_TEST_EXPECT_PLANE_PID: String(found.discovery.pid), FLEET_TEST_EXPECT_PLANE_STARTS: String(starts) });
      assert.equal(readDiscovery(home)?.discovery.pid, found.discovery.pid, 'still the same plane');
    });
  });
}
