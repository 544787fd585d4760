// `npm run test:vscode -- --desktop`: the in-host tests module in a desktop VS Code through
// @vscode/test-electron, where one can be downloaded or is installed (a user's machine, CI with
// internet). Not run on the project's own machines, which have no internet: there the code-server
// tier (test/vscode/*.test.ts) runs the same module.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { ENGINE_VERSIONS } from '../harness/engines.js';
import { DEFAULT_SETTINGS } from '../harness/server.js';
import type { SuiteResults } from '../suite/runner.js';
import { bundleForTests, EXPECTED_IN_HOST_TESTS, makeHome, makeWorkspace, removeDir, REPO_ROOT, stopPlane, SUITE_MODULE } from '../support/fleet-fixtures.js';
import { desktopTestOptions, userDataDir } from './desktop-options.js';

async function main(): Promise<number> {
  bundleForTests();
  const tempDir = mkdtempSync(join(tmpdir(), 'fleet-vscode-desktop-'));
  const home = makeHome();
  const workspace = makeWorkspace();
  const results = join(tempDir, 'results.json');
  mkdirSync(join(userDataDir(tempDir), 'User'), { recursive: true });
  writeFileSync(join(userDataDir(tempDir), 'User', 'settings.json'), JSON.stringify(DEFAULT_SETTINGS, null, 2));
  try {
    const exitCode = await runTests(desktopTestOptions({
      version: process.env.FLEET_VSCODE_DESKTOP_VERSION || ENGINE_VERSIONS.current.vscode,
      ...(process.env.FLEET_VSCODE_DESKTOP_EXECUTABLE && { executable: process.env.FLEET_VSCODE_DESKTOP_EXECUTABLE }),
      extensionPath: REPO_ROOT,
      testsPath: SUITE_MODULE,
      workspace,
      tempDir,
      cachePath: join(REPO_ROOT, '.vscode-test'),
      env: { FLEET_HOME: home, FLEET_PORT: '0', FLEET_TEST_WORKSPACE: workspace, FLEET_TEST_RESULTS: results, FLEET_TEST_PHASE: 'full' },
    }));
    const suite = JSON.parse(readFileSync(results, 'utf8')) as SuiteResults;
    console.log(`[vscode desktop] ${suite.passed.length} passed, ${suite.failed.length} failed`);
    for (const failure of suite.failed) console.log(`[vscode desktop] ✖ ${failure.name}\n${failure.error}`);
    if (exitCode !== 0 || suite.failed.length > 0) return 1;
    if (suite.passed.length !== EXPECTED_IN_HOST_TESTS) {
      console.log(`[vscode desktop] expected ${EXPECTED_IN_HOST_TESTS} in-host tests, ran ${suite.passed.length}`);
      return 1;
    }
    return 0;
  } finally {
    await stopPlane(home);
    for (const dir of [home, workspace, tempDir]) removeDir(dir);
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`[vscode desktop] ${error.message}`);
    process.exit(1);
  },
);
