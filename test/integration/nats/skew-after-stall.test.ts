// Clock skew measured through a store that stalls, on a real 3-node cluster: two planes on one
// machine (one clock) report no skew after the stream's leader hangs for a few seconds (what they
// publish meanwhile is stored late), while a plane whose clock really is off is still reported.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { jetstreamManager } from '@nats-io/jetstream';
import { CLOCK_HEADER } from '../../../server/store/nats/nats-store.js';
import { makeRepo } from '../../support/git-repo.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { callWhenServed, natsConnection, startNatsPlane, stopPlanes } from '../../support/nats-plane.js';

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

/**
 * How long the leader hangs: longer than the skew bound, so a delay read as skew crosses it, and
 * shorter than an election and a publish's timeout, so the leader stores what waited for it.
 */
const HANG_MS = 2_500;
const BOUND_S = 1;
/** The really skewed plane's clock offset. */
const OFFSET_MS = 7_000;

/** The longest a message of the stream waited between its plane's clock at publish and its store (ms). */
async function longestStoreDelay(stream: string): Promise<number> {
  const nc = await natsConnection(cluster);
  try {
    const jsm = await jetstreamManager(nc);
    const last = (await jsm.streams.info(stream)).state.last_seq;
    let longest = -Infinity;
    for (let seq = 1; seq <= last; seq++) {
      const message = await jsm.streams.getMessage(stream, { seq });
      if (message) longest = Math.max(longest, message.time.getTime() - Number(message.header.get(CLOCK_HEADER)));
    }
    return longest;
  } finally {
    await nc.close();
  }
}

test('two planes sharing a clock report no skew after a store stall; a really skewed plane is still reported', async () => {
  const root = makeRepo();
  const env = { FLEET_MAX_CLOCK_SKEW: String(BOUND_S) };
  const stalled = await startNatsPlane(cluster, 'stall', env);
  const steady = await startNatsPlane(cluster, 'stall', env);
  const skewed = await startNatsPlane(cluster, 'stall', { ...env, FLEET_CLOCK_OFFSET: String(OFFSET_MS) });
  const planes = [stalled, steady, skewed];
  let beating: NodeJS.Timeout | undefined;
  let hung: string | undefined;
  try {
    const atlas = await stalled.connect();
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
    const bravo = await steady.connect();
    await bravo.call('fleet_agent_join', { callsign: 'BRAVO', runtime: 'script' });
    const charlie = await skewed.connect();
    await charlie.call('fleet_agent_join', { callsign: 'CHARLIE', runtime: 'script' });
    // The agents keep calling their planes, as working agents do; a refusal does not stop them.
    beating = setInterval(() => {
      for (const client of [atlas, bravo]) void client.call('fleet_agent_heartbeat', {}).catch(() => undefined);
    }, 500);

    const hungNode = await cluster.streamLeader('FLEET_stall');
    cluster.hang(hungNode);
    hung = hungNode;
    const claim = callWhenServed(atlas, 'fleet_claim_path', { patterns: ['src/a.ts'], root }); // waits for the hung leader
    await new Promise((resolve) => setTimeout(resolve, HANG_MS)); // the fault's duration, not a wait for a condition
    cluster.wake(hungNode);
    hung = undefined;
    assert.equal((await claim).granted, true);
    clearInterval(beating);
    // Messages of every plane after the stall, each applied by the others (decided after theirs).
    for (const client of [charlie, atlas, bravo, charlie, atlas, bravo]) await callWhenServed(client, 'fleet_agent_heartbeat', {});

    const delay = await longestStoreDelay('FLEET_stall');
    assert.ok(delay > BOUND_S * 1000, `the stall stored a message late: ${delay} ms after its plane sent it`);

    for (const [name, plane, client, other] of [['stalled', stalled, atlas, 'steady'], ['steady', steady, bravo, 'stalled']] as const) {
      const problems = (await client.call('fleet_status', {})).plane.store?.problems ?? [];
      const skews = problems.filter((p) => p.includes('clock is'));
      assert.equal(skews.length, 1, `the ${name} plane reports the skewed plane only: ${problems.join('; ')}`);
      assert.match(skews[0]!, /clock is 7\.\d s ahead of this one's/);
      const logged = plane.output().match(/clock skew: .*/g) ?? [];
      assert.deepEqual(
        logged.filter((line) => !/clock is 7\.\d s ahead/.test(line)),
        [],
        `the ${name} plane never took the ${other} plane's late messages for skew`,
      );
    }
    console.log(`the hung leader stored a message ${delay} ms after its plane sent it; no skew reported between the planes sharing a clock`);
    atlas.close();
    bravo.close();
    charlie.close();
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- stalled plane:\n${stalled.output()}\n--- steady plane:\n${steady.output()}`, { cause: error });
  } finally {
    clearInterval(beating);
    if (hung !== undefined) cluster.wake(hung);
    await stopPlanes(planes);
  }
});
