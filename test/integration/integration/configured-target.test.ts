import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import { EventWatcher } from '../../support/event-watcher.js';
import { git, makeRepo } from '../../support/git-repo.js';
import { removeHome, startPlaneProcess, tempHome } from '../../support/plane-process.js';

type WriteSetEvent = Extract<FleetEvent, { type: 'integration.write_set' }>;

test('write-sets are read against the target the train lands on (fleet integrate configure --target), not the default branch', async (t) => {
  const repo = makeRepo({ 'src/a.ts': 'a\n', 'src/b.ts': 'b\n' });
  // `dev` is ahead of main by a change to a.ts; the agent's branch starts from dev and edits b.ts.
  git(repo, 'checkout', '-q', '-b', 'dev');
  writeFileSync(join(repo, 'src/a.ts'), 'a on dev\n');
  git(repo, 'commit', '-qam', 'dev changes a');
  git(repo, 'checkout', '-q', 'main');
  const trees = tempHome('fleet-target-trees-');
  const worktree = join(trees, 'atlas');
  git(repo, 'worktree', 'add', '-q', '-b', 'atlas', worktree, 'dev');
  const plane = await startPlaneProcess();
  t.after(async () => {
    await plane.stop();
    for (const dir of [plane.home, repo, trees]) removeHome(dir);
  });
  const operator = await plane.connectAsOperator();
  const events = await EventWatcher.follow(operator);
  const atlas = await plane.connect('test-ATLAS');
  after(() => { atlas.close(); operator.close(); });
  await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script', worktree });
  writeFileSync(join(worktree, 'src/b.ts'), 'b by ATLAS\n');
  const isAtlas = (has: (e: WriteSetEvent) => boolean) => (e: FleetEvent) => e.type === 'integration.write_set' && e.callsign === 'ATLAS' && has(e);

  const againstMain = (await events.waitFor(isAtlas((e) => e.paths.includes('src/b.ts')), 0, 20_000, "ATLAS's write-set against main")) as WriteSetEvent;
  assert.deepEqual([...againstMain.paths].sort(), ['src/a.ts', 'src/b.ts'], 'against main, dev\'s own change to a.ts counts as ATLAS\'s work');

  await operator.call('fleet_integrate_configure', { root: repo, target: 'dev' });
  const from = events.events.length;
  writeFileSync(join(worktree, 'src/b.ts'), 'b by ATLAS, again\n');
  const againstDev = (await events.waitFor(isAtlas((e) => !e.paths.includes('src/a.ts')), from, 20_000, "ATLAS's write-set against dev")) as WriteSetEvent;
  assert.deepEqual(againstDev.paths, ['src/b.ts']);
  assert.equal(againstDev.target, 'refs/heads/dev');
});
