// The conflict forecast between branches is the scope's integrator's job on a shared log (DESIGN
// §14, §16): two real planes on a real 3-node JetStream cluster, agents on each, real git. Each
// conflict found or cleared is in the log once (not once per plane), by the holder of the scope's
// integrator lease; when that plane is SIGKILLed the other takes the lease over and still forecasts;
// a branch whose commits the integrator's machine cannot reach is said to be not compared, and is
// compared once a configured remote it fetches (into refs/fleet/*, never refs/remotes/*) has it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { cloneRepo, git, makeRepo } from '../../support/git-repo.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { callWhenServed, keepCalling, startNatsPlane, stopPlanes, streamEvents } from '../../support/nats-plane.js';
import { removeHome, tempHome, type PlaneProcess } from '../../support/plane-process.js';
import { eventually } from '../../support/train-repo.js';

type Forecast = Extract<FleetEvent, { type: 'integration.forecast' }>;

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

/** The train's name for a plane as a lease holder. */
const planeName = (plane: PlaneProcess) => `plane ${hostname()}:${plane.home}`;

/** The plane holding a scope's integrator lease now, as the shared log says. */
function integratorOf(events: readonly FleetEvent[]): string | undefined {
  let holder: string | undefined;
  for (const event of events) {
    if (event.type === 'lease.acquired' && /^integration\/.+\/integrator$/.test(event.name)) holder = event.agentId;
    if (event.type === 'lease.released' && /^integration\/.+\/integrator$/.test(event.name)) holder = undefined;
  }
  return holder;
}

const forecastsOf = (events: readonly FleetEvent[], pair: string): Forecast[] =>
  events.filter((e): e is Forecast => e.type === 'integration.forecast' && e.otherCallsign !== undefined && [e.callsign, e.otherCallsign].sort().join() === pair);

/** A linked worktree of `repo` on a new branch from main, and an agent of `plane` joined there. */
async function agentIn(plane: PlaneProcess, repo: string, trees: string, callsign: string, clients: PlaneClient[]): Promise<{ client: PlaneClient; tree: string }> {
  const tree = join(trees, callsign.toLowerCase());
  git(repo, 'worktree', 'add', '-q', '-b', callsign.toLowerCase(), tree, 'main');
  const client = await plane.connect(`test-${callsign}`);
  clients.push(client);
  await callWhenServed(client, 'fleet_agent_join', { callsign, runtime: 'script', worktree: tree });
  return { client, tree };
}

test('two planes, agents on each: each conflict found and cleared is in the log once, recorded by the integrator; its kill -9 hands the forecast over', async (t) => {
  const repo = makeRepo({ 'src/shared.ts': 'one\ntwo\nthree\n', 'src/later.ts': 'a\nb\nc\n', 'README.md': '# r\n' });
  const trees = tempHome('fleet-nats-integrator-');
  // A short TTL, so the dead integrator's lease lapses within seconds.
  const env = { FLEET_AGENT_TTL: '3' };
  const planes = [await startNatsPlane(cluster, 'forecast-integrator', env), await startNatsPlane(cluster, 'forecast-integrator', env)];
  const clients: PlaneClient[] = [];
  t.after(async () => {
    if (process.env.DEBUG_PLANES) for (const p of planes) console.error('PLANE', p.output());
    for (const client of clients) client.close();
    await stopPlanes(planes);
    removeHome(repo);
    removeHome(trees);
  });
  const [one, two] = planes as [PlaneProcess, PlaneProcess];
  const atlas = await agentIn(one, repo, trees, 'ATLAS', clients);
  const carl = await agentIn(one, repo, trees, 'CARL', clients);
  const bolt = await agentIn(two, repo, trees, 'BOLT', clients);
  const dash = await agentIn(two, repo, trees, 'DASH', clients);
  const stopCalling = keepCalling(clients, 1000);
  t.after(stopCalling);

  writeFileSync(join(atlas.tree, 'src/shared.ts'), 'one\nATLAS\nthree\n');
  writeFileSync(join(bolt.tree, 'src/shared.ts'), 'one\nBOLT\nthree\n');
  await eventually(60_000, async () => assert.equal(forecastsOf(await streamEvents(cluster, 'forecast-integrator'), 'ATLAS,BOLT').length, 1, 'the ATLAS–BOLT conflict is forecast'));
  // BOLT takes its change back: the conflict clears.
  writeFileSync(join(bolt.tree, 'src/shared.ts'), 'one\ntwo\nthree\n');
  await eventually(60_000, async () => assert.equal(forecastsOf(await streamEvents(cluster, 'forecast-integrator'), 'ATLAS,BOLT').length, 2, 'the ATLAS–BOLT conflict is cleared'));
  // Both planes see both agents' write-sets; a plane that also forecast them would add events now.
  await new Promise((resolve) => setTimeout(resolve, 4000));
  let events = await streamEvents(cluster, 'forecast-integrator');
  const integrator = integratorOf(events);
  assert.ok(integrator === planeName(one) || integrator === planeName(two), `one of the two planes holds the integrator lease (${integrator})`);
  const pair = forecastsOf(events, 'ATLAS,BOLT');
  assert.deepEqual(
    pair.map((e) => [e.status, e.integrator]),
    [
      ['conflict', integrator],
      ['cleared', integrator],
    ],
    'found once and cleared once, both by the integrator',
  );
  assert.deepEqual(pair[0]!.paths, ['src/shared.ts']);

  // kill -9 of the integrator: the other plane takes the lease over once it lapses and forecasts a new conflict between its own agents.
  const [dead, survivor, left, names] = integrator === planeName(one) ? [one, two, [bolt, dash], 'BOLT,DASH'] : [two, one, [atlas, carl], 'ATLAS,CARL'];
  await dead.kill();
  writeFileSync(join(left[0]!.tree, 'src/later.ts'), 'a\nFIRST\nc\n');
  writeFileSync(join(left[1]!.tree, 'src/later.ts'), 'a\nSECOND\nc\n');
  await eventually(90_000, async () => assert.equal(forecastsOf(await streamEvents(cluster, 'forecast-integrator'), names).length, 1, `the ${names} conflict is forecast after the integrator died`));
  events = await streamEvents(cluster, 'forecast-integrator');
  assert.equal(integratorOf(events), planeName(survivor), 'the survivor holds the integrator lease');
  const taken = forecastsOf(events, names);
  assert.equal(taken[0]!.integrator, planeName(survivor));
  assert.deepEqual(taken[0]!.paths, ['src/later.ts']);
  const watcher = await survivor.connectAsOperator();
  clients.push(watcher);
  const conflicts = await watcher.call('fleet_conflicts', {});
  assert.ok(conflicts.conflicts.some((c) => [c.callsign, c.otherCallsign].sort().join() === names));
});

test("a branch the integrator's machine cannot reach is said to be not compared; with a configured remote it fetches, it is compared", async (t) => {
  // One origin, two clones (as on two machines): the same scope, no objects in common beyond main.
  const seed = makeRepo({ 'src/shared.ts': 'one\ntwo\nthree\n', 'README.md': '# r\n' });
  const trees = tempHome('fleet-nats-reach-');
  const origin = join(trees, 'origin.git');
  execFileSync('git', ['clone', '-q', '--bare', seed, origin], { stdio: 'ignore' });
  const [first, second] = [cloneRepo(origin), cloneRepo(origin)];
  const planes = [await startNatsPlane(cluster, 'forecast-reach'), await startNatsPlane(cluster, 'forecast-reach')];
  const clients: PlaneClient[] = [];
  t.after(async () => {
    if (process.env.DEBUG_PLANES) for (const p of planes) console.error('PLANE', p.output());
    for (const client of clients) client.close();
    await stopPlanes(planes);
    for (const folder of [seed, trees, first, second]) removeHome(folder);
  });
  const [one, two] = planes as [PlaneProcess, PlaneProcess];
  const atlas = await agentIn(one, first, trees, 'ATLAS', clients);
  const bolt = await agentIn(two, second, trees, 'BOLT', clients);
  writeFileSync(join(atlas.tree, 'src/shared.ts'), 'one\nATLAS\nthree\n');
  writeFileSync(join(bolt.tree, 'src/shared.ts'), 'one\nBOLT\nthree\n');

  const operator = await one.connectAsOperator();
  clients.push(operator);
  let unreachable = '';
  await eventually(60_000, async () => {
    const { writeSets } = await operator.call('fleet_conflicts', {});
    assert.equal(writeSets.length, 2);
    const notCompared = writeSets.filter((w) => w.notCompared !== undefined);
    assert.equal(notCompared.length, 1, 'the write-set whose commits are in the other clone only is said to be not compared');
    unreachable = notCompared[0]!.callsign;
    assert.match(notCompared[0]!.notCompared!, /not reachable from the integrator's plane .*no remote is configured/);
  });
  const events = await streamEvents(cluster, 'forecast-reach');
  assert.equal(forecastsOf(events, 'ATLAS,BOLT').length, 0, 'not compared: no forecast either way');
  const integrator = integratorOf(events);
  const [integratorClone, otherTree, otherBranch] = integrator === planeName(one) ? [first, bolt.tree, 'bolt'] : [second, atlas.tree, 'atlas'];
  assert.equal(unreachable, otherBranch.toUpperCase());

  // A remote the integrator fetches from: both push their committed work, and the pair is compared.
  await operator.call('fleet_integrate_configure', { root: first, remote: 'origin' });
  for (const tree of [atlas.tree, bolt.tree]) {
    git(tree, 'commit', '-q', '-am', 'work');
    git(tree, 'push', '-q', 'origin', 'HEAD');
  }
  await eventually(90_000, async () => {
    const found = forecastsOf(await streamEvents(cluster, 'forecast-reach'), 'ATLAS,BOLT');
    assert.equal(found.length, 1, 'the pair is compared once its branch is fetched');
    assert.deepEqual(found[0]!.paths, ['src/shared.ts']);
  });
  assert.equal(git(integratorClone, 'rev-parse', `refs/fleet/origin/${otherBranch}`), git(otherTree, 'rev-parse', 'HEAD'), 'fetched into refs/fleet/*');
  assert.throws(() => git(integratorClone, 'rev-parse', '--verify', '--quiet', `refs/remotes/origin/${otherBranch}`), 'never into refs/remotes/*');
  const { writeSets } = await operator.call('fleet_conflicts', {});
  assert.deepEqual(writeSets.map((w) => w.notCompared), [undefined, undefined], 'both compared now');
});
