// A plane cut off from its JetStream cluster (its only connection runs through a relay the test
// cuts): mutations and hook checks are refused with STORE_UNAVAILABLE, reads answer with their
// staleness, `fleet status` says so; meanwhile another plane keeps deciding. Once the relay is
// restored the plane recovers by itself and decides on the caught-up state. A publish the cluster
// stored but whose ack was lost is refused the same way; retried with its requestId it is found.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import { PlaneCallError } from '../../../server/client/plane-client.js';
import { makeRepo } from '../../support/git-repo.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { callWhenServed, startNatsPlane, stopPlanes, storeHealthy, streamEvents } from '../../support/nats-plane.js';
import { startTcpCut } from '../../support/tcp-cut.js';

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

async function refusal(call: Promise<unknown>): Promise<string | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return error instanceof PlaneCallError ? error.errorName : String(error);
  }
}

test('a plane cut off from the cluster refuses mutations, serves stale reads, and catches up by itself', async () => {
  const root = makeRepo();
  const relay = await startTcpCut(cluster.nodes[0]!.clientPort);
  const cutPlane = await startNatsPlane(`nats://127.0.0.1:${relay.port}`, 'cut');
  const otherPlane = await startNatsPlane(cluster, 'cut');
  try {
    const atlas = await cutPlane.connect();
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
    assert.equal((await atlas.call('fleet_claim_path', { patterns: ['src/a.ts'], root })).granted, true);
    const bravo = await otherPlane.connect();
    await bravo.call('fleet_agent_join', { callsign: 'BRAVO', runtime: 'script' });

    relay.cut();
    // The first refusal may take one publish timeout (the plane learns of the cut by failing).
    let refused: string | undefined;
    for (let attempt = 0; attempt < 20 && refused !== 'STORE_UNAVAILABLE'; attempt++) {
      refused = await refusal(atlas.call('fleet_claim_path', { patterns: [`src/cut${attempt}.ts`], root }));
      assert.ok(refused === undefined || refused === 'STORE_UNAVAILABLE', `refused with ${refused}`);
    }
    assert.equal(refused, 'STORE_UNAVAILABLE');
    assert.equal(await refusal(atlas.call('fleet_hook_check', { hook: 'test', paths: ['src/a.ts'], root, callsign: 'ATLAS' })), 'STORE_UNAVAILABLE', 'hooks deny with the store reason');
    const status = await atlas.call('fleet_status', {});
    assert.equal(status.plane.store?.health, 'unavailable');
    assert.match(status.plane.store?.problems?.[0] ?? '', /no quorum/);
    const read = (await atlas.callRaw('fleet_check_path', { paths: ['src/a.ts'], root })) as { allowed: boolean; store?: { staleSeconds: number } };
    assert.equal(read.allowed, true, 'reads answer from the replica');
    assert.equal(typeof read.store?.staleSeconds, 'number', 'and say how stale they are');

    // The rest of the fleet goes on: BRAVO claims while ATLAS's plane cannot hear of it.
    assert.equal((await bravo.call('fleet_claim_path', { patterns: ['docs/**'], root })).granted, true);

    relay.restore();
    await storeHealthy(atlas); // recovery is the plane's own doing; the test only waits for it to say so
    const conflict = await atlas.call('fleet_claim_path', { patterns: ['docs/guide.md'], root });
    assert.deepEqual([conflict.granted, conflict.conflicts[0]?.holder], [false, 'BRAVO'], 'decided on the caught-up state');
    assert.equal((await atlas.call('fleet_claim_path', { patterns: ['src/b.ts'], root })).granted, true, 'mutations are taken again');
    atlas.close();
    bravo.close();
  } finally {
    await stopPlanes([cutPlane, otherPlane]);
    await relay.close();
  }
});

test('a claim whose publish was stored but whose ack was lost: STORE_UNAVAILABLE says to retry with the requestId, and the retry gets the stored grant', async () => {
  const root = makeRepo();
  const relay = await startTcpCut(cluster.nodes[0]!.clientPort);
  const plane = await startNatsPlane(`nats://127.0.0.1:${relay.port}`, 'lost-ack');
  try {
    const atlas = await plane.connect();
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
    const params = { patterns: ['src/a.ts'], requestId: 'lost-ack-1', root };

    relay.holdReplies(); // the publish reaches the cluster, which stores it; its ack never comes back
    let unavailable: PlaneCallError | undefined;
    const claimed = atlas.call('fleet_claim_path', params).catch((error: unknown) => (unavailable = error as PlaneCallError));
    // Sent after the claim on the same connection, so decided on a core that holds the unacknowledged grant.
    const readMeanwhile = atlas.callRaw('fleet_status', {}) as Promise<{ claims: unknown[]; store?: { health: string; staleSeconds: number } }>;
    await claimed;
    assert.equal(unavailable?.errorName, 'STORE_UNAVAILABLE', `answered ${String(unavailable)}`);
    assert.match(unavailable!.message, /may have been stored.*same requestId/, 'the message says what a caller should do');
    const during = await readMeanwhile; // not refused: it is answered again from the rolled-back state
    assert.deepEqual([during.claims.length, during.store?.health, typeof during.store?.staleSeconds], [0, 'unavailable', 'number'], 'the read shows what the store confirmed, and how stale it is');
    relay.cut();
    relay.restore();
    await storeHealthy(atlas);

    const grantsOf = async () => (await streamEvents(cluster, 'lost-ack')).filter((e) => e.type === 'claim.granted' && e.requestId === params.requestId);
    assert.equal((await grantsOf()).length, 1, 'the cluster stored the refused attempt');
    const retried = await callWhenServed(atlas, 'fleet_claim_path', params);
    const grants = await grantsOf();
    assert.equal(grants.length, 1, `one grant in the stream for the request, not one per attempt: ${JSON.stringify(grants)}`);
    const stored = grants[0] as Extract<FleetEvent, { type: 'claim.granted' }>;
    assert.deepEqual([retried.granted, retried.claims.map((c) => [c.id, c.fence])], [true, [[stored.claimId, stored.fence]]], 'the retry returns the grant the cluster stored');
    atlas.close();
  } finally {
    relay.cut(); // a plane whose replies are held would wait on them as it stops
    await stopPlanes([plane]);
    await relay.close();
  }
});

test('a read while cut off, with deadlines due that the plane cannot record, is answered or refused within two publish timeouts, not held while the cut lasts', async () => {
  const root = makeRepo();
  const relay = await startTcpCut(cluster.nodes[0]!.clientPort);
  const plane = await startNatsPlane(`nats://127.0.0.1:${relay.port}`, 'due', { FLEET_AGENT_TTL: '1' });
  try {
    const atlas = await plane.connect();
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
    assert.equal((await atlas.call('fleet_claim_path', { patterns: ['src/a.ts'], root })).granted, true);
    atlas.close(); // silent from now on: its expiry falls due while the plane is cut off
    const reader = await plane.connect();
    relay.cut();
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // past 2 × TTL: every sweep records the expiry, and each publish times out
    const held = Symbol('held');
    const outcome = await Promise.race([
      refusal(reader.call('fleet_check_path', { paths: ['src/a.ts'], root })),
      // Two publish timeouts (3 s each) at most; the bound leaves room for a loaded machine.
      new Promise<typeof held>((resolve) => setTimeout(() => resolve(held), 12_000).unref()),
    ]);
    assert.notEqual(outcome, held, 'the read was held for as long as the cut lasts');
    assert.ok(outcome === undefined || outcome === 'STORE_UNAVAILABLE', `answered ${String(outcome)}`);
    relay.restore();
    await storeHealthy(reader);
    reader.close();
  } finally {
    relay.cut();
    await stopPlanes([plane]);
    await relay.close();
  }
});

test('an agent that keeps calling its cut-off plane is logged alive once the plane is back: the stall is credited, not counted as its silence', async () => {
  const relay = await startTcpCut(cluster.nodes[0]!.clientPort);
  const ttlMs = 2_000;
  const plane = await startNatsPlane(`nats://127.0.0.1:${relay.port}`, 'heard', { FLEET_AGENT_TTL: String(ttlMs / 1000) });
  try {
    const atlas = await plane.connect();
    const { agentId } = await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
    const bravo = await plane.connect();
    await bravo.call('fleet_agent_join', { callsign: 'BRAVO', runtime: 'script' });
    bravo.close(); // silent: the plane's sweeps decide about it while cut off, and each refused decision rolls the plane back
    const reader = await plane.connect(); // unjoined: its calls are no one's heartbeat

    relay.cut();
    const cutAt = Date.now();
    const outcomes = new Set<string | undefined>();
    while (Date.now() < cutAt + 3 * ttlMs) {
      outcomes.add(await refusal(atlas.call('fleet_agent_heartbeat', {})));
      await new Promise((resolve) => setTimeout(resolve, 250)); // an agent's pacing
    }
    assert.ok(outcomes.has('STORE_UNAVAILABLE'), `ATLAS's calls were refused while cut off: ${[...outcomes].join(', ')}`);
    relay.restore();
    await storeHealthy(reader);

    const deadline = Date.now() + 10_000;
    let ofAtlas: FleetEvent[] = [];
    while (!ofAtlas.some((e) => e.type === 'agent.heartbeat' && e.at >= cutAt) && Date.now() < deadline) {
      ofAtlas = (await streamEvents(cluster, 'heard')).filter((e) => 'agentId' in e && e.agentId === agentId);
    }
    assert.ok(ofAtlas.some((e) => e.type === 'agent.heartbeat' && e.at >= cutAt), `the plane logged ATLAS alive after the cut: ${ofAtlas.map((e) => e.type).join(', ')}`);
    assert.ok(!ofAtlas.some((e) => e.type === 'agent.expired'), 'ATLAS never expired');
    atlas.close();
    reader.close();
  } finally {
    relay.cut();
    await stopPlanes([plane]);
    await relay.close();
  }
});
