// Several planes (separate FLEET_HOMEs) of one fleet on a real 3-node JetStream cluster, agents on
// each. Judged from the stream's own order by the independent referee (grant-checker): zero double
// grants and strictly increasing fences per scope across planes; every acknowledged grant is in
// the stream. Rerun a failure with FLEET_TEST_SEED.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import { runCrossPlaneLoad, type LoadOutcome } from '../../support/cross-plane-load.js';
import { makeRepo } from '../../support/git-repo.js';
import { describeViolations, GrantChecker } from '../../support/grant-checker.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { startNatsPlane, stopPlanes, streamEvents } from '../../support/nats-plane.js';
import { REPO_FILES } from '../../support/pattern-universe.js';
import type { PlaneProcess } from '../../support/plane-process.js';
import { SeededRandom, testSeed } from '../../support/seeded-random.js';

const seed = testSeed();
console.log(`nats multi-plane: seed ${seed} (rerun: FLEET_TEST_SEED=${seed})`);

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

async function withPlanes(count: number, fleet: string, body: (planes: PlaneProcess[]) => Promise<void>, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const planes: PlaneProcess[] = [];
  try {
    for (let i = 0; i < count; i++) planes.push(await startNatsPlane(cluster, fleet, env));
    await body(planes);
  } finally {
    await stopPlanes(planes);
  }
}

/** The referee over the stream, plus the acknowledged grants it must contain. */
export function judge(events: readonly FleetEvent[], outcome: LoadOutcome, agentTtlMs: number): void {
  const checker = new GrantChecker({ agentTtlMs }).applyAll(events);
  const doubleGrants = checker.violations.filter((v) => v.kind === 'overlap' || v.kind === 'fence' || v.kind === 'duplicate-id' || v.kind === 'seq');
  assert.equal(doubleGrants.length, 0, `seed ${seed}: ${describeViolations(checker)}`);
  const missing = outcome.acked.filter((grant) => checker.grants.get(grant.claimId)?.fence !== grant.fence);
  assert.deepEqual(missing, [], `seed ${seed}: acknowledged grants missing from the stream`);
}

for (const planeCount of [2, 3]) {
  test(`${planeCount} planes, agents on each, random overlapping claims: zero double grants and increasing fences in the stream's order`, async () => {
    const root = makeRepo(REPO_FILES);
    const fleet = `load${planeCount}`;
    await withPlanes(planeCount, fleet, async (planes) => {
      const outcome = await runCrossPlaneLoad(planes, { agentsPerPlane: 4, opsPerAgent: 60, root, random: new SeededRandom(seed + planeCount) });
      assert.deepEqual([...outcome.errors], [], `seed ${seed}: calls failed`);
      assert.ok(outcome.acked.length > 20 && outcome.refused > 0, `seed ${seed}: a run with contention (${outcome.acked.length} grants, ${outcome.refused} refusals)`);
      const perPlane = new Set(outcome.acked.map((g) => g.plane));
      assert.equal(perPlane.size, planeCount, 'every plane granted something');
      judge(await streamEvents(cluster, fleet), outcome, 120_000);
    });
  });
}

test('pause on one plane is seen by an agent of another on its next call', async () => {
  const root = makeRepo();
  await withPlanes(2, 'pause', async ([a, b]) => {
    const agent = await b!.connect();
    await agent.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
    const operator = await a!.connectAsOperator();
    for (let round = 0; round < 5; round++) {
      await operator.call('fleet_control_set', { state: 'pause', reason: `round ${round}` });
      const refused = await agent.call('fleet_claim_path', { patterns: [`src/r${round}.ts`], root });
      assert.deepEqual([refused.granted, refused.refusedBy, refused.control.state], [false, 'control', 'pause'], `round ${round}`);
      await operator.call('fleet_control_set', { state: 'run' });
      const granted = await agent.call('fleet_claim_path', { patterns: [`src/r${round}.ts`], root });
      assert.deepEqual([granted.granted, granted.control.state], [true, 'run'], `round ${round}`);
    }
    agent.close();
    operator.close();
  });
});

test("an agent that only reads on one plane stays live on the others (batched heartbeats)", async () => {
  const root = makeRepo();
  const ttlS = 1;
  await withPlanes(2, 'liveness', async ([a, b]) => {
    const reader = await a!.connect();
    await reader.call('fleet_agent_join', { callsign: 'READER', runtime: 'script' });
    const held = await reader.call('fleet_claim_path', { patterns: ['src/**'], root });
    assert.equal(held.granted, true);
    const other = await b!.connect();
    await other.call('fleet_agent_join', { callsign: 'OTHER', runtime: 'script' });
    // Checks are unlogged calls: only plane A hears them. Three TTLs of them, then B must still see the claim.
    const until = Date.now() + 3 * ttlS * 1000;
    while (Date.now() < until) {
      await reader.call('fleet_check_path', { paths: ['src/a.ts'], root });
      await other.call('fleet_check_path', { paths: ['README.md'], root });
    }
    const refused = await other.call('fleet_claim_path', { patterns: ['src/a.ts'], root });
    assert.equal(refused.granted, false, 'READER expired on plane B although it kept calling plane A');
    const types = (await streamEvents(cluster, 'liveness')).map((e) => e.type);
    // Not even marked unknown (which the next call would repair with a logged heartbeat).
    assert.ok(!types.includes('agent.expired') && !types.includes('agent.unknown'), types.join(','));
    reader.close();
    other.close();
  }, { FLEET_AGENT_TTL: String(ttlS) });
});
