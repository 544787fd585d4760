// Dead waiters (DESIGN §4 waitSeconds, §12): clients queue claims with long waits, then hang up.
// A wait ends with the connection that asked, so nothing is granted to a waiter nobody is left to
// tell, nobody queued behind one waits for it, the plane answers another client within 50 ms
// throughout, and every acknowledged grant survives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { startBystanderProbe, type ProbeReport } from '../support/bystander-probe.js';
import { makeRepo } from '../support/git-repo.js';
import { removeHome, startPlaneProcess } from '../support/plane-process.js';
import { SeededRandom, testSeed } from '../support/seeded-random.js';
import { within } from '../support/within.js';

const seed = testSeed();
const replay = `seed ${seed} (rerun: FLEET_TEST_SEED=${seed})`;
/** Far longer than the test: only the hang-up may end these waits. */
const WAITER_WAIT_SECONDS = 3600;
/** How long the live agent queued behind the dead ones is prepared to wait (the test's bound). */
const LIVE_WAIT_SECONDS = 10;
const ANSWER_WITHIN_MS = 50;
const OUTLIER_MS = 250;
const WANTED = ['src/**', 'src/**/*.ts', 'src/a.ts', 'src/lib/**', 'src/*.ts'];

test(`waiting claims end with the connection that asked: nothing is granted to a dead waiter (${replay})`, async () => {
  console.log(`dead-waiters: ${replay}`);
  const random = new SeededRandom(seed);
  const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'docs/guide.md': '# guide\n' });
  const plane = await startPlaneProcess();
  const clients: PlaneClient[] = [];
  const probe = startBystanderProbe({ port: plane.port }, plane.token);
  let answered!: ProbeReport;
  try {
    await probe.ready;
    const atlas = await plane.connect('atlas');
    clients.push(atlas);
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
    const held = await atlas.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
    const kept = await atlas.call('fleet_claim_path', { patterns: ['docs/**'], root: repo });
    assert.ok(held.granted && kept.granted);

    // Waiters: each connection joins its own agent and queues a few claims behind ATLAS.
    const waiterCount = random.int(6, 12);
    const waiters: { client: PlaneClient; callsign: string; sessionToken: string; waits: Promise<unknown>[] }[] = [];
    for (let i = 0; i < waiterCount; i++) {
      const client = await plane.connect(`waiter-${i}`);
      const callsign = `W${i}`;
      const { sessionToken } = await client.call('fleet_agent_join', { callsign, runtime: 'script' });
      const waits = random.sample(WANTED, random.int(1, 3)).map((pattern) =>
        // Rejected once the connection closes; what matters is what the plane does with the wait.
        client.call('fleet_claim_path', { patterns: [pattern], root: repo, waitSeconds: WAITER_WAIT_SECONDS }).catch(() => undefined),
      );
      // A connection's requests start in order: once this is answered, its waits are queued.
      await client.call('fleet_control_get', {});
      waiters.push({ client, callsign, sessionToken, waits });
    }
    const boreas = await plane.connect('boreas');
    clients.push(boreas);
    await boreas.call('fleet_agent_join', { callsign: 'BOREAS', runtime: 'script' });
    const queuedAhead = await boreas.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
    const waitingHolders = new Set(queuedAhead.conflicts.map((conflict) => conflict.holder));
    for (const { callsign } of waiters) assert.ok(waitingHolders.has(callsign), `${callsign}'s wait is queued (${replay})`);

    // One waiter's agent re-attaches elsewhere before its first connection goes: the wait still
    // ends with the connection that asked (the agent asks again where it now is).
    const moved = random.pick(waiters);
    const reattached = await plane.connect('reattached');
    clients.push(reattached);
    await reattached.call('fleet_agent_join', { callsign: moved.callsign, runtime: 'script', sessionToken: moved.sessionToken });

    await Promise.all(
      random.sample(waiters, waiters.length).map(({ client }) => {
        const gone = new Promise<void>((resolve) => client.onClose(resolve));
        client.close();
        return gone;
      }),
    );
    await Promise.all(waiters.flatMap((waiter) => waiter.waits));
    // The plane hears of a close a little after the client does: once it has, the queue ahead of
    // BOREAS is empty, and only ATLAS stands in the way (a grant racing a close is beyond any plane).
    const onlyAtlasInTheWay = async () => {
      for (;;) {
        const probe = await boreas.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
        if (probe.conflicts.every((conflict) => conflict.holder === 'ATLAS')) return;
      }
    };
    await within(onlyAtlasInTheWay(), 10_000, `the plane withdrawing the closed connections' waits (${replay})`);

    // ATLAS lets go: the territory goes to the live agent that asked, not to the dead waiters ahead of it.
    const waiting = boreas.call('fleet_claim_path', { patterns: ['src/**'], root: repo, waitSeconds: LIVE_WAIT_SECONDS });
    await atlas.call('fleet_release_path', { claimIds: [held.claims[0]!.id] });
    const granted = await within(waiting, (LIVE_WAIT_SECONDS + 5) * 1000, `BOREAS's waiting claim (${replay})`);
    assert.equal(granted.granted, true, `BOREAS waited behind dead waiters: ${JSON.stringify(granted.conflicts)} (${replay})`);

    const claims = (await atlas.call('fleet_claims', {})).claims;
    const byHolder = claims.map((claim) => [claim.holder, claim.pattern]).sort();
    assert.deepEqual(byHolder, [['ATLAS', 'docs/**'], ['BOREAS', 'src/**']], `no dead waiter holds territory (${replay})`);
    assert.equal(claims.find((claim) => claim.holder === 'ATLAS')!.fence, kept.claims[0]!.fence, 'the acknowledged grant survived');
  } finally {
    answered = await probe.stop();
    for (const client of clients) client.close();
    await plane.stop();
    removeHome(plane.home);
    removeHome(repo);
    console.log(`dead-waiters: the bystander was answered ${answered.count} times, p50 ${answered.p50Ms.toFixed(1)} ms, p95 ${answered.p95Ms.toFixed(1)} ms, slowest ${answered.maxMs.toFixed(1)} ms; ${replay}`);
  }
  assert.ok(answered.p95Ms <= ANSWER_WITHIN_MS, `the bystander's p95 was ${answered.p95Ms.toFixed(1)} ms (${replay})`);
  assert.ok(answered.maxMs <= OUTLIER_MS, `the bystander waited ${answered.maxMs.toFixed(1)} ms (${replay})`);
});
