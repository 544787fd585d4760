// Issue 27 item 8, DESIGN §16: "an agent's claims never lapse because its plane's link to the store
// stalled (credit it as a plane stall)". A plane on a real 3-node cluster is cut off from every node
// (its only connection runs through a relay the test cuts) for longer than 2 × FLEET_AGENT_TTL while
// its agent keeps calling it. The other plane holds that agent `stalled`, its claims kept, until the
// plane is back (then its liveness resumes). A plane that shuts down says so: its agents then expire
// at their own TTL, not at the plane-death bound (FLEET_PLANE_DEATH_TTL; the core's unit test shows
// a plane silent past it counting as dead).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { makeRepo } from '../../support/git-repo.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { keepCalling, startNatsPlane, stopPlanes, storeHealthy, streamEvents } from '../../support/nats-plane.js';
import { startTcpCut } from '../../support/tcp-cut.js';

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

const TTL_S = 3;
/** Far past the cut below and the expiry after a plane's stop. */
const PLANE_DEATH_TTL_S = 120;
/** The first cut: past an agent's expiry (2 × TTL), short of the plane-death bound. */
const CUT_MS = 3 * TTL_S * 1000;

async function atlasOn(client: PlaneClient): Promise<{ status: string; claims: string[] } | undefined> {
  const agent = (await client.call('fleet_roster', { includeGone: true })).agents.find((a) => a.callsign === 'ATLAS');
  const claims = (await client.call('fleet_claims', {})).claims.filter((c) => c.holder === 'ATLAS').map((c) => c.pattern);
  return agent && { status: agent.status, claims };
}

/** Polls `probe` (bounded) until `done` says so; the last value otherwise, for the assertion to show. */
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, boundMs: number): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250)); // a status poll's pacing
  }
}

test('a plane cut off from every node past 2 × TTL: its calling agent is held stalled with its claims by the other plane and resumes when the plane returns; once the plane stops, it expires at its own TTL', async () => {
  const root = makeRepo();
  const env = { FLEET_AGENT_TTL: String(TTL_S), FLEET_PLANE_DEATH_TTL: String(PLANE_DEATH_TTL_S) };
  const relay = await startTcpCut(cluster.nodes[0]!.clientPort);
  const cutPlane = await startNatsPlane(`nats://127.0.0.1:${relay.port}`, 'plane-cut', env);
  const other = await startNatsPlane(cluster, 'plane-cut', env);
  let stopCalling: (() => void) | undefined;
  try {
    const atlas = await cutPlane.connect();
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
    assert.equal((await atlas.call('fleet_claim_path', { patterns: ['src/a.ts'], root })).granted, true);
    const bravo = await other.connect();
    await bravo.call('fleet_agent_join', { callsign: 'BRAVO', runtime: 'script' });
    stopCalling = keepCalling([atlas, bravo], 500);
    // The other plane has heard ATLAS through its plane's relay before the cut.
    assert.equal((await until(() => atlasOn(bravo), (a) => a?.status === 'active', 10_000))?.status, 'active');

    relay.cut();
    const cutAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, CUT_MS)); // the fault's duration, not a wait for a condition
    assert.deepEqual(await atlasOn(bravo), { status: 'stalled', claims: ['src/a.ts'] }, `after ${Date.now() - cutAt} ms of cut, ATLAS is held as its plane's stall, its claim kept`);
    const conflict = await bravo.call('fleet_claim_path', { patterns: ['src/a.ts'], root });
    assert.deepEqual([conflict.granted, conflict.conflicts[0]?.holder], [false, 'ATLAS']);

    relay.restore();
    await storeHealthy(atlas);
    assert.deepEqual(await until(() => atlasOn(bravo), (a) => a?.status === 'active', 10_000), { status: 'active', claims: ['src/a.ts'] }, 'back: ATLAS\'s liveness resumes');
    assert.deepEqual((await streamEvents(cluster, 'plane-cut')).filter((e) => e.type === 'agent.expired'), [], 'no agent expired');

    // ATLAS's plane shuts down: its silence is its own now, and it expires at its TTL.
    atlas.close();
    await cutPlane.stop();
    const gone = await until(() => atlasOn(bravo), (a) => a?.status === 'expired', 6 * TTL_S * 1000);
    assert.deepEqual(gone, { status: 'expired', claims: [] }, 'a plane that stopped holds nothing for its agents');
    assert.equal((await bravo.call('fleet_claim_path', { patterns: ['src/a.ts'], root })).granted, true);
    bravo.close();
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- cut plane:\n${cutPlane.output()}\n--- other plane:\n${other.output()}`, { cause: error });
  } finally {
    stopCalling?.();
    await stopPlanes([cutPlane, other]);
    await relay.close();
  }
});
