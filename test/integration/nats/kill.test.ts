// Faults under load on a real 3-node JetStream cluster: a plane SIGKILLed, and the node leading the
// stream SIGKILLed. Nothing acknowledged is lost (every grant an agent saw is in the stream, which
// the referee still finds free of double grants), and service resumes. Rerun with FLEET_TEST_SEED.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCrossPlaneLoad } from '../../support/cross-plane-load.js';
import { makeRepo } from '../../support/git-repo.js';
import { describeViolations, GrantChecker } from '../../support/grant-checker.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { callWhenServed, startNatsPlane, stopPlanes, storeHealthy, streamEvents } from '../../support/nats-plane.js';
import { PATTERN_UNIVERSE, REPO_FILES } from '../../support/pattern-universe.js';
import { minimatch } from 'minimatch';
import { SeededRandom, testSeed } from '../../support/seeded-random.js';

const seed = testSeed();
console.log(`nats kill: seed ${seed} (rerun: FLEET_TEST_SEED=${seed})`);

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

async function judgeStream(fleet: string, acked: readonly { claimId: string; fence: number }[]): Promise<void> {
  const checker = new GrantChecker({ agentTtlMs: 120_000 }).applyAll(await streamEvents(cluster, fleet));
  const doubleGrants = checker.violations.filter((v) => ['overlap', 'fence', 'duplicate-id', 'seq'].includes(v.kind));
  assert.equal(doubleGrants.length, 0, `seed ${seed}: ${describeViolations(checker)}`);
  assert.deepEqual(acked.filter((g) => checker.grants.get(g.claimId)?.fence !== g.fence), [], `seed ${seed}: acknowledged grants lost`);
}

const LOAD = { agentsPerPlane: 4, opsPerAgent: 60, faultOp: 150 };

test('a plane SIGKILLed under load: nothing it acknowledged is lost, the other plane serves on, a new plane takes over its agents', async () => {
  const root = makeRepo(REPO_FILES);
  const planes = [await startNatsPlane(cluster, 'kill'), await startNatsPlane(cluster, 'kill')];
  try {
    const outcome = await runCrossPlaneLoad(planes, { ...LOAD, root, random: new SeededRandom(seed), faultAt: { op: LOAD.faultOp, inject: () => planes[0]!.kill() } });
    assert.deepEqual([...outcome.errors.keys()].filter((name) => name !== 'connection'), [], `seed ${seed}: only the killed plane's connections fail`);
    assert.ok(outcome.acked.some((g) => g.plane === 1), 'the surviving plane granted');
    await judgeStream('kill', outcome.acked);
    // A new plane on a fresh home replays the stream and serves the killed plane's agents' fleet.
    planes.push(await startNatsPlane(cluster, 'kill'));
    const client = await planes[2]!.connect();
    await client.call('fleet_agent_join', { callsign: 'LATE', runtime: 'script' });
    const claims = await client.call('fleet_claims', {});
    assert.ok(claims.claims.length > 0, 'the killed plane\'s agents still hold their claims (until they expire)');
    client.close();
  } finally {
    await stopPlanes(planes);
  }
});

test('the stream leader node SIGKILLed under load: nothing acknowledged is lost and both planes serve again', async () => {
  const root = makeRepo(REPO_FILES);
  const planes = [await startNatsPlane(cluster, 'leader'), await startNatsPlane(cluster, 'leader')];
  let killed: string | undefined;
  try {
    const killLeader = async () => {
      killed = await cluster.streamLeader('FLEET_leader');
      await cluster.kill(killed);
    };
    const outcome = await runCrossPlaneLoad(planes, { ...LOAD, root, random: new SeededRandom(seed + 1), faultAt: { op: LOAD.faultOp, inject: killLeader } });
    assert.ok(killed, 'a leader was killed mid-run');
    // While a new leader is elected a call may be refused as retryable; nothing else.
    assert.deepEqual([...outcome.errors.keys()].filter((name) => name !== 'STORE_UNAVAILABLE'), [], `seed ${seed}: errors ${[...outcome.errors]}`);
    for (const [index, plane] of planes.entries()) {
      const client = await plane.connect();
      await storeHealthy(client);
      await callWhenServed(client, 'fleet_agent_join', { callsign: `AFTER${index}`, runtime: 'script' });
      // A path none of the load's patterns covers: the load's agents keep what they held at its end.
      const fresh = `after/${index}.txt`;
      assert.ok(!PATTERN_UNIVERSE.some((spec) => minimatch(fresh, spec.canonical, { dot: true })), `${fresh} is outside the load's patterns`);
      const granted = (await callWhenServed(client, 'fleet_claim_path', { patterns: [fresh], root })).granted;
      assert.ok(granted, `plane ${index} serves again after the leader's death`);
      client.close();
    }
    await cluster.restart(killed!);
    killed = undefined;
    await judgeStream('leader', outcome.acked);
  } finally {
    await stopPlanes(planes);
    if (killed) await cluster.restart(killed);
  }
});
