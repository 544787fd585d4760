// The train on a shared store: two planes on a real JetStream, exactly one integrates a scope (the
// holder of its integrator lease); when that plane is SIGKILLed mid-build, the other takes the lease
// over once it lapses, resumes the batch and lands the item once.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { git, makeRepo } from '../../support/git-repo.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { callWhenServed, startNatsPlane, stopPlanes } from '../../support/nats-plane.js';
import { passingReport } from '../../support/orchestration-plane.js';
import { removeHome, tempHome } from '../../support/plane-process.js';
import { commitFiles, eventually } from '../../support/train-repo.js';

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

test('two planes on NATS: one integrator at a time; its death hands the train over and the item lands once', async (t) => {
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
  git(repo, 'checkout', '-q', '-b', 'operator');
  const trees = tempHome('fleet-trees-');
  const bolt = join(trees, 'bolt');
  execFileSync('git', ['-C', repo, 'worktree', 'add', '-q', '-b', 'bolt-work', bolt, 'main'], { stdio: 'ignore' });
  const env = { FLEET_AGENT_TTL: '3' };
  const planes = [await startNatsPlane(cluster, 'train', env), await startNatsPlane(cluster, 'train', env)];
  t.after(async () => {
    await stopPlanes(planes.slice(1));
    removeHome(planes[0]!.home);
    removeHome(trees);
    removeHome(repo);
  });
  const [first, second] = planes as [typeof planes[0], typeof planes[0]];
  const operator = await first.connectAsOperator();
  const builder = await first.connect('BOLT');
  const verifier = await first.connect('VERA');
  t.after(() => [operator, builder, verifier].forEach((c) => c.close()));
  await callWhenServed(builder, 'fleet_agent_join', { callsign: 'BOLT', runtime: 'test', role: 'builder', worktree: bolt });
  await callWhenServed(verifier, 'fleet_agent_join', { callsign: 'VERA', runtime: 'test', role: 'verifier' });
  const criteria = ['b exists'];
  const { item } = await callWhenServed(operator, 'fleet_work_add', { title: 'add b', paths: ['src/b.ts'], criteria, root: repo });
  await builder.call('fleet_work_pull', {});
  const commit = commitFiles(bolt, { 'src/b.ts': 'export const b = 1;\n' });
  await builder.call('fleet_work_update', { id: item.id, action: 'complete', artifact: { touchedFiles: ['src/b.ts'], commands: [], criteria } });
  await verifier.call('fleet_work_pull', {});
  await verifier.call('fleet_work_update', { id: item.id, action: 'verify', report: passingReport(criteria) });
  await operator.call('fleet_work_update', { id: item.id, action: 'decide', decision: { disposition: 'accept', reasonCode: 'verified', refs: [], note: 'passed' } });

  const counter = join(trees, 'builds');
  await operator.call('fleet_integrate_configure', { root: repo, buildCommand: `echo "start $FLEET_HOME" >> ${counter}; sleep 4; echo "end $FLEET_HOME" >> ${counter}` });
  const before = git(repo, 'rev-parse', 'main');
  await operator.call('fleet_land', { ids: [item.id], root: repo });
  const lines = () => readFileSync(counter, 'utf8').trim().split('\n');
  await eventually(20_000, async () => assert.deepEqual(lines(), [`start ${first.home}`], 'the plane that took the lease builds; the other does not'));
  // The other plane looks for scopes to take over every third of the lease TTL (1 s here): it must not start a build while this one holds the lease.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  assert.deepEqual(lines(), [`start ${first.home}`], 'one integrator at a time');
  await first.kill();
  assert.equal(git(repo, 'rev-parse', 'main'), before);

  const watcher = await second.connectAsOperator();
  t.after(() => watcher.close());
  await eventually(60_000, async () => {
    const listed = await watcher.call('fleet_work_list', { id: item.id });
    assert.equal(listed.items[0]?.status, 'landed');
  });
  assert.ok(lines().includes(`start ${second.home}`) && lines().includes(`end ${second.home}`), 'the surviving plane built it');
  assert.equal(lines().filter((l) => l === `start ${second.home}`).length, 1);
  assert.equal(git(repo, 'rev-parse', 'main^1'), before);
  assert.equal(git(repo, 'rev-parse', 'main^2'), commit, 'landed once, exactly the queued commit');
});
