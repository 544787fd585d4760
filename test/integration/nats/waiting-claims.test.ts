// Waiting claims (waitSeconds) on two planes of one fleet, while the planes overtake each other's
// decisions and reset their cores to the stream: every waiter is answered the way the stream has
// it. Judged from the stream's own order: no double grants, one grant per waiting request, a
// waiter told "granted" finds exactly its grant in the stream, and one told "refused" none.
// Rerun a failure with FLEET_TEST_SEED.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PlaneCallError, type PlaneClient } from '../../../server/client/plane-client.js';
import { makeRepo } from '../../support/git-repo.js';
import { describeViolations, GrantChecker } from '../../support/grant-checker.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { startNatsPlane, stopPlanes, streamEvents } from '../../support/nats-plane.js';
import type { PlaneProcess } from '../../support/plane-process.js';
import { SeededRandom, testSeed } from '../../support/seeded-random.js';

const seed = testSeed();
console.log(`nats waiting claims: seed ${seed} (rerun: FLEET_TEST_SEED=${seed})`);

/** Few patterns, all overlapping `src/**`: most claims queue behind a holder on either plane. */
const CONTESTED = ['src/w0.ts', 'src/w1.ts', 'src/w2.ts', 'src/**'];
const AGENTS_PER_PLANE = 3;
const OPS_PER_AGENT = 40;

interface Answer {
  requestId: string;
  granted: boolean;
  claims: { id: string; fence: number }[];
}

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

/**
 * One agent: waiting claims on contested patterns (released again once granted), between quick
 * unqueued claims of its own files, which keep both planes publishing so each overtakes the other.
 */
async function waitingAgent(client: PlaneClient, callsign: string, root: string, random: SeededRandom, answers: Answer[], errors: string[]): Promise<void> {
  await client.call('fleet_agent_join', { callsign, runtime: 'script' });
  for (let op = 0; op < OPS_PER_AGENT; op++) {
    try {
      if (random.chance(0.35)) {
        const own = await client.call('fleet_claim_path', { patterns: [`other/${callsign}-${op}.ts`], root });
        await client.call('fleet_release_path', { claimIds: own.claims.map((c) => c.id), root });
        continue;
      }
      const requestId = `${callsign}-${op}`;
      const reply = await client.call('fleet_claim_path', { patterns: [random.pick(CONTESTED)], waitSeconds: 5, requestId, root });
      answers.push({ requestId, granted: reply.granted, claims: reply.claims.map(({ id, fence }) => ({ id, fence })) });
      if (reply.granted) await client.call('fleet_release_path', { claimIds: reply.claims.map((c) => c.id), root });
    } catch (error) {
      errors.push(`${callsign} op ${op}: ${error instanceof PlaneCallError ? `${error.errorName}: ${error.message}` : String(error)}`);
    }
  }
}

test('waiting claims across two planes that reset each other: one grant per request, every waiter answered as the stream has it', async () => {
  const root = makeRepo({ 'src/w0.ts': '', 'src/w1.ts': '', 'src/w2.ts': '' });
  const planes: PlaneProcess[] = [];
  try {
    for (let i = 0; i < 2; i++) planes.push(await startNatsPlane(cluster, 'waits'));
    const answers: Answer[] = [];
    const errors: string[] = [];
    const random = new SeededRandom(seed);
    const clients = await Promise.all(planes.flatMap((plane, p) => Array.from({ length: AGENTS_PER_PLANE }, (_, a) => plane.connect(`waiter-${p}-${a}`))));
    await Promise.all(clients.map((client, i) => waitingAgent(client, `W${i}`, root, random.fork(i), answers, errors)));
    for (const client of clients) client.close();
    assert.deepEqual(errors, [], `seed ${seed}: calls failed`);

    const checker = new GrantChecker({ agentTtlMs: 120_000 }).applyAll(await streamEvents(cluster, 'waits'));
    const doubleGrants = checker.violations.filter((v) => ['overlap', 'fence', 'duplicate-id', 'seq'].includes(v.kind));
    assert.equal(doubleGrants.length, 0, `seed ${seed}: ${describeViolations(checker)}`);
    const byRequest = new Map<string, { id: string; fence: number }[]>();
    for (const grant of checker.grants.values()) {
      if (grant.requestId !== undefined) byRequest.set(grant.requestId, [...(byRequest.get(grant.requestId) ?? []), { id: grant.claimId, fence: grant.fence }]);
    }
    const duplicated = [...byRequest].filter(([, grants]) => grants.length > 1);
    assert.deepEqual(duplicated, [], `seed ${seed}: waiting requests granted more than once in the stream`);
    const inconsistent = answers.filter((answer) => JSON.stringify(answer.granted ? answer.claims : []) !== JSON.stringify(byRequest.get(answer.requestId) ?? []));
    assert.deepEqual(inconsistent.map((a) => ({ ...a, stream: byRequest.get(a.requestId) ?? [] })), [], `seed ${seed}: waiters answered otherwise than the stream has it`);
    const waitedAndGranted = answers.filter((a) => a.granted).length;
    console.log(`seed ${seed}: ${answers.length} waiting claims, ${waitedAndGranted} granted, ${checker.stats.grants} grants in the stream`);
    assert.ok(waitedAndGranted > 20, `seed ${seed}: a run with waits (${waitedAndGranted} of ${answers.length} granted)`);
  } finally {
    await stopPlanes(planes);
  }
});
