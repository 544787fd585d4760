// A repository inside the workspace that the workspace's repository ignores, as `fleet demo --here`
// makes one (issue 26, item 8), on the minimum and the current engine: the "nested" phase of the
// in-host suite (test/vscode/suite/nested-repository-tests.ts) in a window of its own. The demo's
// own code makes the repository; a second one beside it has no fleet activity.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSampleRepository, HERE_FOLDER } from '../../server/demo/sample-repo.js';
import { describeInHostPhase } from './support/in-host-phase.js';

describeInHostPhase({
  title: 'A repository inside the workspace that its repository ignores',
  test: 'git opens the one an agent claims in, and no other, inside the extension host',
  phase: 'nested',
  expectedTests: 1,
  prepare: async (workspace) => {
    const demo = realpathSync(await createSampleRepository(workspace));
    const idle = join(workspace, HERE_FOLDER, 'idle');
    mkdirSync(idle);
    writeFileSync(join(idle, 'README.md'), '# nobody works here\n');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Fleet Test', '-c', 'user.email=fleet@example.invalid', ...args], { cwd: idle, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'idle');
    return { FLEET_TEST_NESTED_REPOSITORY: demo, FLEET_TEST_IDLE_REPOSITORY: idle };
  },
});
