// A repository inside the workspace that the workspace's repository ignores, as `fleet demo --here`
// makes one (issue 26, item 8), on the minimum and the current engine: the "nested" phase of the
// in-host suite (test/vscode/suite/nested-repository-tests.ts) in a window of its own. The demo's
// own code makes the repository; a second one beside it has no fleet activity.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createSampleRepository, HERE_FOLDER } from '../../server/demo/sample-repo.js';
import { ENGINE_VERSIONS, selectedEngineIds } from './harness/index.js';
import { bundleForTests, makeHome, makeWorkspace, removeDir, stopPlane } from './support/fleet-fixtures.js';
import { runInHostPhase } from './support/in-host-phase.js';

const EXPECTED_TESTS = 1;

before(() => bundleForTests());

for (const id of selectedEngineIds()) {
  describe(`A repository inside the workspace that its repository ignores, VS Code ${ENGINE_VERSIONS[id].vscode} (${id})`, { timeout: 300_000 }, () => {
    const home = makeHome();
    const workspace = makeWorkspace();
    const resultsFile = join(home, '..', `${home.split('/').pop()}-nested-results.json`);
    after(async () => {
      await stopPlane(home);
      removeDir(home);
      removeDir(workspace);
      removeDir(resultsFile);
    });

    test('git opens the one an agent claims in, and no other, inside the extension host', async () => {
      const demo = realpathSync(await createSampleRepository(workspace));
      const idle = join(workspace, HERE_FOLDER, 'idle');
      mkdirSync(idle);
      writeFileSync(join(idle, 'README.md'), '# nobody works here\n');
      const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Fleet Test', '-c', 'user.email=fleet@example.invalid', ...args], { cwd: idle, stdio: 'ignore' });
      git('init', '-q', '-b', 'main');
      git('add', '-A');
      git('commit', '-q', '-m', 'idle');
      await runInHostPhase({ engine: id, phase: 'nested', home, workspace, resultsFile, expectedTests: EXPECTED_TESTS, env: { FLEET_TEST_NESTED_REPOSITORY: demo, FLEET_TEST_IDLE_REPOSITORY: idle } });
    });
  });
}
