// The conflict forecast on a shared log (DESIGN §14): two planes of one fleet on a real 3-node
// JetStream cluster, ATLAS on one, BOLT on the other, each in its own worktree of one repository.
// Their conflicting edits are forecast, and the event reaches BOLT through its own plane.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import { EventWatcher } from '../../support/event-watcher.js';
import { git, makeRepo } from '../../support/git-repo.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { startNatsPlane, stopPlanes } from '../../support/nats-plane.js';
import { removeHome, tempHome, type PlaneProcess } from '../../support/plane-process.js';

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

test('two planes on NATS: agents of different planes whose branches conflict are told, through either plane', async () => {
  const repo = makeRepo({ 'src/shared.ts': 'one\ntwo\nthree\n', 'README.md': '# r\n' });
  const trees = tempHome('fleet-nats-forecast-');
  const [atlasTree, boltTree] = [join(trees, 'atlas'), join(trees, 'bolt')];
  git(repo, 'worktree', 'add', '-q', '-b', 'atlas', atlasTree, 'main');
  git(repo, 'worktree', 'add', '-q', '-b', 'bolt', boltTree, 'main');
  const planes: PlaneProcess[] = [];
  const clients = [];
  try {
    planes.push(await startNatsPlane(cluster, 'forecast'), await startNatsPlane(cluster, 'forecast'));
    const [atlas, bolt] = [await planes[0]!.connect('test-atlas'), await planes[1]!.connect('test-bolt')];
    clients.push(atlas, bolt);
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script', worktree: atlasTree });
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'script', worktree: boltTree });
    const boltFeed = await EventWatcher.follow(bolt);
    writeFileSync(join(atlasTree, 'src/shared.ts'), 'one\nATLAS\nthree\n');
    writeFileSync(join(boltTree, 'src/shared.ts'), 'one\nBOLT\nthree\n');
    const found = (await boltFeed.waitFor(
      (e) => e.type === 'integration.forecast' && e.status === 'conflict' && [e.callsign, e.otherCallsign].sort().join() === 'ATLAS,BOLT',
      0,
      60_000,
      'the ATLAS–BOLT forecast on BOLT’s plane',
    )) as Extract<FleetEvent, { type: 'integration.forecast' }>;
    assert.deepEqual(found.paths, ['src/shared.ts']);
    const resume = await atlas.call('fleet_agent_resume', {});
    assert.deepEqual(resume.conflicts.map((c) => c.otherCallsign), ['BOLT']);
  } finally {
    for (const client of clients) client.close();
    await stopPlanes(planes);
    removeHome(repo);
    removeHome(trees);
  }
});
