// A NATS node that hangs (SIGSTOP: its sockets stay open, nothing answers) under a plane on a real
// 3-node cluster. The plane finds the stall in seconds and moves to another node; its agents, which
// heartbeat throughout, keep their claims on every plane while the other plane goes on deciding.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeRepo } from '../../support/git-repo.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { callWhenServed, keepCalling, startNatsPlane, stopPlanes, streamEvents } from '../../support/nats-plane.js';

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

/** Short, so the hang outlasts an agent's expiry (2 × TTL) by a wide margin. */
const TTL_S = 10;
/** How long the node hangs: well past an expiry horizon (2 × TTL) of silence if the plane stayed stuck on it. */
const HANG_MS = 3 * TTL_S * 1000;
/** The plane takes changes again within this of the hang (the stall found, another node reached, the stream's leader re-elected). */
const FAILOVER_BOUND_MS = 2 * TTL_S * 1000 - 1_000;

test('a hung node: the plane on it fails over within seconds and its heartbeating agents keep their claims on every plane', async () => {
  const root = makeRepo();
  const env = { FLEET_AGENT_TTL: String(TTL_S) };
  const onHung = await startNatsPlane(cluster.urlsFrom('n1'), 'hung', env);
  const [hungNode, ...more] = await cluster.nodesServing('fleet plane ');
  assert.deepEqual([typeof hungNode, more], ['string', []], 'the first plane holds one connection, on one node');
  const otherNode = cluster.nodes.find((n) => n.name !== hungNode)!.name;
  const other = await startNatsPlane(cluster.urlsFrom(otherNode), 'hung', env);
  const planes = [onHung, other];
  let stopCalling: (() => void) | undefined;
  let hung = false;
  try {
    const atlas = await onHung.connect();
    await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
    assert.equal((await atlas.call('fleet_claim_path', { patterns: ['src/a.ts'], root })).granted, true);
    const bravo = await other.connect();
    await bravo.call('fleet_agent_join', { callsign: 'BRAVO', runtime: 'script' });
    stopCalling = keepCalling([atlas, bravo], 1_000);

    cluster.hang(hungNode!);
    hung = true;
    const hungAt = Date.now();
    await callWhenServed(atlas, 'fleet_claim_path', { patterns: ['src/b.ts'], root }, FAILOVER_BOUND_MS);
    const failedOverMs = Date.now() - hungAt;
    const status = await atlas.call('fleet_status', {});
    assert.equal(status.plane.store?.health, 'ok', 'reads are current again while a quorum answers');

    // The hang goes on well past an expiry horizon; the other plane keeps deciding meanwhile.
    assert.equal((await callWhenServed(bravo, 'fleet_claim_path', { patterns: ['docs/**'], root })).granted, true);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, hungAt + HANG_MS - Date.now()))); // the fault's duration, not a wait for a condition

    const held = (await bravo.call('fleet_claims', {})).claims.filter((c) => c.holder === 'ATLAS').map((c) => c.pattern).sort();
    assert.deepEqual(held, ['src/a.ts', 'src/b.ts'], `the other plane still sees ATLAS's claims after ${HANG_MS} ms of hang (failed over in ${failedOverMs} ms)`);
    const conflict = await bravo.call('fleet_claim_path', { patterns: ['src/a.ts'], root });
    assert.deepEqual([conflict.granted, conflict.conflicts[0]?.holder], [false, 'ATLAS']);
    const expired = (await streamEvents(cluster.nodes.find((n) => n.name !== hungNode)!.url, 'hung')).filter((e) => e.type === 'agent.expired');
    assert.deepEqual(expired, [], 'no agent expired');
    console.log(`hung node ${hungNode}: its plane took a change again after ${failedOverMs} ms`);
    atlas.close();
    bravo.close();
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- plane on the hung node:\n${onHung.output()}\n--- other plane:\n${other.output()}`, { cause: error });
  } finally {
    stopCalling?.();
    if (hung) cluster.wake(hungNode!);
    await stopPlanes(planes);
  }
});
