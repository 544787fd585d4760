// The clock echo other planes' messages carry is input like any other: a message of an older plane
// (no echo) and messages of a plane whose echo is garbled are applied like every message of the
// stream; the garbled echo is named once in the plane's log, and neither plane is taken for skewed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeRepo } from '../../support/git-repo.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { callWhenServed, openStreamAs, startNatsPlane, stopPlanes, streamEvents } from '../../support/nats-plane.js';

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

/** Logs a `plane.heartbeat` of plane `planeId` in the fleet's stream per clock echo, each message carrying its echo (none if undefined). */
async function heartbeatsAs(fleet: string, planeId: string, clockEchoes: (string | undefined)[]): Promise<void> {
  const { store, lastEventSeq } = await openStreamAs(cluster, fleet, planeId);
  try {
    for (const [i, clockEcho] of clockEchoes.entries()) {
      store.clockEcho = () => clockEcho;
      await store.append([{ seq: lastEventSeq + 1 + i, at: Date.now(), by: 'plane', type: 'plane.heartbeat', plane: planeId }]);
    }
  } finally {
    await store.close();
  }
}

test("an older plane's message without a clock echo and a garbled echo are taken; the garbled one is logged once", async () => {
  const root = makeRepo();
  const plane = await startNatsPlane(cluster, 'echo', { FLEET_MAX_CLOCK_SKEW: '0.5' });
  try {
    await heartbeatsAs('echo', 'pl_older', [undefined]);
    await heartbeatsAs('echo', 'pl_garbled', ['{"pl_', JSON.stringify([['pl_x', 'soon', 1]])]);
    const atlas = await plane.connect();
    // Decided on a state that holds the three messages: the plane has applied them.
    await callWhenServed(atlas, 'fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
    assert.equal((await callWhenServed(atlas, 'fleet_claim_path', { patterns: ['src/a.ts'], root })).granted, true, 'the plane goes on deciding');
    const events = await streamEvents(cluster, 'echo');
    assert.deepEqual(events.filter((e) => e.type === 'plane.heartbeat').map((e) => (e as { plane: string }).plane), ['pl_older', 'pl_garbled', 'pl_garbled']);
    const logged = plane.output().match(/clock skew: .*/g) ?? [];
    assert.equal(logged.length, 1, logged.join('\n'));
    assert.match(logged[0]!, /^clock skew: plane pl_garbled's clock echo is unreadable \(not JSON .*\); its clock is not compared with this one's/);
    assert.deepEqual((await atlas.call('fleet_status', {})).plane.store?.problems ?? [], []);
    atlas.close();
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- plane:\n${plane.output()}`, { cause: error });
  } finally {
    await stopPlanes([plane]);
  }
});
