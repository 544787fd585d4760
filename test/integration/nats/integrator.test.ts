// The train on a shared store: two planes on a real JetStream, exactly one integrates a scope (the
// holder of its integrator lease); when that plane is SIGKILLed mid-build, the other takes the lease
// over once it lapses, resumes the batch and lands the item once; when it only stood still (SIGSTOP)
// past the lease, it wakes up as a plane that lost the lease and moves nothing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
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

type TestEnd = { after(fn: () => Promise<void> | void): void };

/** Two planes of `fleet` (one per test: the cluster is shared) and an item accepted on the first, built on a branch of its own, ready to land. */
async function acceptedOnTwoPlanes(t: TestEnd, fleet: string) {
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
  git(repo, 'checkout', '-q', '-b', 'operator');
  const trees = tempHome('fleet-trees-');
  const bolt = join(trees, 'bolt');
  execFileSync('git', ['-C', repo, 'worktree', 'add', '-q', '-b', 'bolt-work', bolt, 'main'], { stdio: 'ignore' });
  const env = { FLEET_AGENT_TTL: '3' };
  const planes = [await startNatsPlane(cluster, fleet, env), await startNatsPlane(cluster, fleet, env)];
  t.after(async () => {
    await stopPlanes(planes);
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
  const lines = () => readFileSync(counter, 'utf8').trim().split('\n');
  return { repo, first, second, operator, item, commit, counter, lines, before: git(repo, 'rev-parse', 'main') };
}

test('two planes on NATS: one integrator at a time; its death hands the train over and the item lands once', async (t) => {
  const { repo, first, second, operator, item, commit, counter, lines, before } = await acceptedOnTwoPlanes(t, 'train');
  await operator.call('fleet_integrate_configure', { root: repo, buildCommand: `echo "start $FLEET_HOME" >> ${counter}; sleep 4; echo "end $FLEET_HOME" >> ${counter}` });
  await operator.call('fleet_land', { ids: [item.id], root: repo });
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

/**
 * The first plane builds, stands still (SIGSTOP) past its lease while the second takes the batch
 * over, then wakes up to its own build ending `woken` (each build waits for a file in its plane's
 * home, which says how it ends). It must move and record nothing: the second lands the item once.
 */
async function stalledIntegrator(t: TestEnd, fleet: string, woken: 'green' | 'red'): Promise<void> {
  const { repo, first, second, operator, item, commit, counter, lines, before } = await acceptedOnTwoPlanes(t, fleet);
  t.after(() => void (first.child.exitCode === null && process.kill(first.child.pid!, 'SIGCONT')));
  const go = `$FLEET_HOME/go`;
  await operator.call('fleet_integrate_configure', { root: repo, buildCommand: `echo "start $FLEET_HOME" >> ${counter}; for i in $(seq 1200); do [ -e "${go}" ] && break; sleep 0.1; done; echo "end $FLEET_HOME" >> ${counter}; [ "$(cat "${go}")" != red ]` });
  await operator.call('fleet_land', { ids: [item.id], root: repo });
  await eventually(20_000, async () => assert.deepEqual(lines(), [`start ${first.home}`], 'the plane that took the lease builds'));

  process.kill(first.child.pid!, 'SIGSTOP');
  await eventually(30_000, async () => assert.deepEqual(lines(), [`start ${first.home}`, `start ${second.home}`], 'the lease lapsed and the other plane took the batch over'));
  process.kill(first.child.pid!, 'SIGCONT');
  // A change through the woken plane rests on the whole shared log: it has now seen the lease move.
  const late = await first.connect('WREN');
  t.after(() => late.close());
  await callWhenServed(late, 'fleet_agent_join', { callsign: 'WREN', runtime: 'test', role: 'verifier' });

  writeFileSync(join(first.home, 'go'), woken);
  await eventually(20_000, async () => assert.ok(lines().includes(`end ${first.home}`)));
  const watcher = await second.connectAsOperator();
  t.after(() => watcher.close());
  const status = async () => (await watcher.call('fleet_work_list', { id: item.id })).items[0]?.status;
  await eventually(20_000, async () => assert.ok(first.output().includes('no longer holds the integrator lease') || git(repo, 'rev-parse', 'main') !== before || (await status()) !== 'landing', 'the woken plane acted on its build'));
  assert.equal(git(repo, 'rev-parse', 'main'), before, 'a plane that lost the integrator lease does not move the target');
  assert.equal(await status(), 'landing', "nor does it decide the holder's batch");

  writeFileSync(join(second.home, 'go'), 'green');
  await eventually(60_000, async () => assert.equal(await status(), 'landed'));
  assert.equal(git(repo, 'rev-parse', 'main^1'), before);
  assert.equal(git(repo, 'rev-parse', 'main^2'), commit, 'landed once, exactly the queued commit');
  assert.equal(lines().filter((l) => l.startsWith('start ')).length, 2, 'no third build: the holder finished the batch');
}

test('two planes on NATS: an integrator that stood still (SIGSTOP) past its lease wakes up to a GREEN build and moves nothing; the plane that took over lands the item once', (t) => stalledIntegrator(t, 'stalled-green', 'green'));

test('two planes on NATS: an integrator that stood still past its lease wakes up to a RED build and records nothing (the holder\'s batch is not ended, the item not sent back); the holder lands it', (t) => stalledIntegrator(t, 'stalled-red', 'red'));
