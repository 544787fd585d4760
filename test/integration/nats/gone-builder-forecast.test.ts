// A gone builder's write-set on a shared log (DESIGN §14): two planes of one fleet on a real 3-node
// JetStream cluster. ATLAS, on one plane, completes an item on its own branch (its claims held) and
// leaves; BOLT, on the other, edits the same line on its branch. The scope's integrator, whichever
// plane it is, forecasts the conflict against ATLAS's kept write-set; marking the item landed ends both.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { EventWatcher } from '../../support/event-watcher.js';
import { git, makeRepo } from '../../support/git-repo.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { startNatsPlane, stopPlanes } from '../../support/nats-plane.js';
import { removeHome, tempHome, type PlaneProcess } from '../../support/plane-process.js';

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

const CRITERIA = ['line two says who'];
const between = (status: 'conflict' | 'cleared') => (e: FleetEvent) =>
  e.type === 'integration.forecast' && e.status === status && [e.callsign, e.otherCallsign].sort().join() === 'ATLAS,BOLT';

test('two planes on NATS: a builder that left with its item awaiting landing is still forecast against from the other plane, until the item is marked landed', async () => {
  const repo = makeRepo({ 'src/shared.ts': 'one\ntwo\nthree\n', 'README.md': '# r\n' });
  const trees = tempHome('fleet-nats-gone-builder-');
  const [atlasTree, boltTree] = [join(trees, 'atlas'), join(trees, 'bolt')];
  git(repo, 'worktree', 'add', '-q', '-b', 'atlas', atlasTree, 'main');
  git(repo, 'worktree', 'add', '-q', '-b', 'bolt', boltTree, 'main');
  const planes: PlaneProcess[] = [];
  const clients: PlaneClient[] = [];
  try {
    planes.push(await startNatsPlane(cluster, 'gone-builder'), await startNatsPlane(cluster, 'gone-builder'));
    const [atlas, bolt, operator] = [await planes[0]!.connect('test-atlas'), await planes[1]!.connect('test-bolt'), await planes[1]!.connectAsOperator()];
    clients.push(atlas, bolt, operator);
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script', role: 'builder', worktree: atlasTree });
    await bolt.call('fleet_agent_join', { callsign: 'BOLT', runtime: 'script', role: 'builder', worktree: boltTree });
    const feed = await EventWatcher.follow(operator);

    const { item } = await operator.call('fleet_work_add', { title: 'line two', paths: ['src/shared.ts'], criteria: CRITERIA, root: repo });
    assert.equal((await atlas.call('fleet_work_pull', {})).item?.id, item.id);
    writeFileSync(join(atlasTree, 'src/shared.ts'), 'one\nATLAS\nthree\n');
    git(atlasTree, 'commit', '-q', '-am', 'atlas: line two');
    await feed.waitFor((e) => e.type === 'integration.write_set' && e.callsign === 'ATLAS' && e.paths.includes('src/shared.ts'), 0, 30_000, "ATLAS's write-set");
    await atlas.call('fleet_work_update', { id: item.id, action: 'complete', artifact: { touchedFiles: ['src/shared.ts'], commands: [], criteria: CRITERIA } });
    await atlas.call('fleet_agent_leave', {});
    const left = await feed.waitFor((e) => e.type === 'agent.left' && e.by === 'ATLAS', 0, 10_000, 'ATLAS leaving');
    assert.ok(left.type === 'agent.left');
    assert.deepEqual(left.awaitingLanding, [item.id]);

    const from = feed.events.length;
    writeFileSync(join(boltTree, 'src/shared.ts'), 'one\nBOLT\nthree\n');
    const found = await feed.waitFor(between('conflict'), from, 60_000, "the BOLT–ATLAS forecast after ATLAS left");
    assert.ok(found.type === 'integration.forecast');
    assert.deepEqual(found.paths, ['src/shared.ts']);
    // Read through ATLAS's own plane: the kept write-set is in every plane's state.
    const atlasPlane = await planes[0]!.connectAsOperator();
    clients.push(atlasPlane);
    const seen = await atlasPlane.call('fleet_conflicts', {});
    assert.deepEqual(seen.writeSets.find((w) => w.callsign === 'ATLAS')?.awaitingLanding, { agent: 'left', items: [item.id] });

    const marked = feed.events.length;
    await operator.call('fleet_land', { ids: [item.id], done: true });
    await feed.waitFor(between('cleared'), marked, 30_000, 'the forecast cleared');
    await feed.waitFor((e) => e.type === 'integration.write_set' && e.callsign === 'ATLAS' && e.ended === true, marked, 30_000, "ATLAS's write-set ended");
  } finally {
    for (const client of clients) client.close();
    await stopPlanes(planes);
    removeHome(repo);
    removeHome(trees);
  }
});
