// The desktop runner's options (npm run test:vscode -- --desktop): built by a pure function,
// checked here because no desktop VS Code can be downloaded on these machines.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { desktopTestOptions, type DesktopRunInput } from '../../vscode/desktop/desktop-options.js';

const input: DesktopRunInput = {
  version: '1.104.0',
  extensionPath: '/repo',
  testsPath: '/repo/out/vscode-suite/index.cjs',
  workspace: '/tmp/ws',
  tempDir: '/tmp/run',
  cachePath: '/repo/.vscode-test',
  env: { FLEET_HOME: '/tmp/home', FLEET_PORT: '0' },
};

describe('desktop VS Code test options', () => {
  test('the same extension and tests module, the workspace opened, user data and extensions in the temp folder', () => {
    const options = desktopTestOptions(input);
    assert.equal(options.version, '1.104.0');
    assert.equal(options.cachePath, '/repo/.vscode-test');
    assert.equal(options.extensionDevelopmentPath, '/repo');
    assert.equal(options.extensionTestsPath, '/repo/out/vscode-suite/index.cjs');
    assert.deepEqual(options.extensionTestsEnv, { FLEET_HOME: '/tmp/home', FLEET_PORT: '0' });
    assert.equal(options.launchArgs?.[0], '/tmp/ws', 'the first launch argument is the folder VS Code opens');
    assert.ok(options.launchArgs?.includes('--user-data-dir=/tmp/run/user-data'));
    assert.ok(options.launchArgs?.includes('--extensions-dir=/tmp/run/extensions'));
    assert.ok(options.launchArgs?.includes('--disable-workspace-trust'));
    assert.equal(options.vscodeExecutablePath, undefined);
  });

  test('an installed VS Code is used as it is: no version, nothing downloaded', () => {
    const options = desktopTestOptions({ ...input, executable: '/usr/share/code/code' });
    assert.equal(options.vscodeExecutablePath, '/usr/share/code/code');
    assert.equal(options.version, undefined);
    assert.equal(options.cachePath, undefined);
  });

  test('the environment given is copied, not shared', () => {
    const options = desktopTestOptions(input);
    options.extensionTestsEnv!.FLEET_HOME = 'changed';
    assert.equal(input.env.FLEET_HOME, '/tmp/home');
  });
});
