// One plane on a real 3-node JetStream cluster: the store works as the embedded one does (state
// survives a restart from the stream), events are mirrored for watchers, status names the store.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeRepo } from '../../support/git-repo.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { natsConnection, startNatsPlane, streamEvents } from '../../support/nats-plane.js';
import { removeHome } from '../../support/plane-process.js';
import { runCli } from '../../support/run-cli.js';

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

test('a plane on JetStream keeps its state in the stream across a restart, mirrors events, and names its store', async () => {
  const root = makeRepo();
  const nc = await natsConnection(cluster);
  const mirrored: string[] = [];
  const sub = nc.subscribe('fleet.solo.events.>', { callback: (_err, msg) => void mirrored.push(msg.subject) });
  await nc.flush();
  let plane = await startNatsPlane(cluster, 'solo');
  try {
    const atlas = await plane.connect();
    const joined = await atlas.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
    const claim = await atlas.call('fleet_claim_path', { patterns: ['src/**'], root });
    assert.equal(claim.granted, true);
    const status = await atlas.call('fleet_status', {});
    assert.deepEqual({ kind: status.plane.store?.kind, health: status.plane.store?.health, stream: status.plane.store?.stream }, { kind: 'nats', health: 'ok', stream: 'FLEET_solo' });
    const printed = await runCli(['status'], { home: plane.home, cwd: root });
    assert.match(printed.stdout, /store: NATS JetStream stream FLEET_solo at nats:\/\/127\.0\.0\.1:\d+.*: ok/);
    atlas.close();
    assert.equal(await plane.stop(), 0);
    removeHome(plane.home); // nothing local survives: the state must come back from the stream

    plane = await startNatsPlane(cluster, 'solo');
    const again = await plane.connect();
    await again.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script', sessionToken: joined.sessionToken });
    const claims = await again.call('fleet_claims', {});
    assert.deepEqual(claims.claims.map((c) => [c.pattern, c.fence]), [['src/**', claim.claims[0]!.fence]]);
    const other = await plane.connect();
    await other.call('fleet_agent_join', { callsign: 'BRAVO', runtime: 'script' });
    const refused = await other.call('fleet_claim_path', { patterns: ['src/a.ts'], root });
    assert.equal(refused.granted, false, 'the claim replayed from the stream still holds');
    again.close();
    other.close();
    const types = (await streamEvents(cluster, 'solo')).map((e) => e.type);
    assert.ok(types.includes('claim.granted') && types.filter((t) => t === 'plane.started').length === 2, types.join(','));
    await nc.flush();
    assert.ok(mirrored.includes('fleet.solo.events.claim.granted'), `mirrored: ${mirrored.join(',')}`);
  } finally {
    sub.unsubscribe();
    await nc.close();
    await plane.stop();
    removeHome(plane.home);
  }
});
