// The JetStream store (DESIGN §7, §13) on a real 3-node nats-server cluster on loopback: claim p50
// against a bare JetStream publish-and-ack of the same size on the same stream replication (the
// floor, measured in the same run, interleaved in blocks), durable operations per second with two
// planes, and the time until a plane serves again after the stream's leader node is killed.
import { jetstream, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { PlaneClient, PlaneCallError } from '../../server/client/plane-client.js';
import { startNatsCluster, type NatsCluster } from '../../test/support/nats-cluster.js';
import { PlaneHandle } from '../lib/plane-handle.js';
import { count, ms, Report, times, us } from '../lib/report.js';
import { microsSince, summarize } from '../lib/stats.js';

const SECTION = 'jetstream';

async function planeOn(cluster: NatsCluster, fleet: string): Promise<{ plane: PlaneHandle; client(): Promise<PlaneClient> }> {
  const plane = await PlaneHandle.start({ env: { FLEET_STORE: cluster.urls, FLEET_NAME: fleet } });
  return { plane, client: () => PlaneClient.connect({ port: plane.port, ...(plane.socket !== undefined && { socket: plane.socket }) }, plane.token, 'bench') };
}

async function joined(connect: () => Promise<PlaneClient>, callsign: string): Promise<PlaneClient> {
  const client = await connect();
  await client.call('fleet_agent_join', { callsign, runtime: 'bench' });
  return client;
}

export async function jetStreamSection(options: { quick: boolean }, report: Report): Promise<void> {
  const cluster = await startNatsCluster();
  const planes: PlaneHandle[] = [];
  try {
    const root = process.cwd();
    const blocks = options.quick ? 4 : 20;
    const perBlock = 50;

    // The floor: the same client library, a stream like the fleet's (R3, file), a payload the size of a claim's message.
    const nc = await connect({ servers: cluster.urls.split(',') });
    await (await jetstreamManager(nc)).streams.add({ name: 'FLOOR', subjects: ['floor'], num_replicas: 3, storage: StorageType.File });
    const js = jetstream(nc);
    const payload = 'x'.repeat(420);
    const one = await planeOn(cluster, 'bench');
    planes.push(one.plane);
    const agent = await joined(one.client, 'BENCH');
    const floor: number[] = [];
    const claim: number[] = [];
    for (let block = 0; block < blocks; block++) {
      for (let i = 0; i < perBlock; i++) {
        const start = process.hrtime.bigint();
        await js.publish('floor', payload);
        floor.push(microsSince(start));
      }
      for (let i = 0; i < perBlock; i++) {
        const start = process.hrtime.bigint();
        const reply = await agent.call('fleet_claim_path', { patterns: [`bench/${block}/${i}.ts`], root });
        claim.push(microsSince(start));
        await agent.call('fleet_release_path', { claimIds: reply.claims.map((c) => c.id), root });
      }
    }
    const floorSummary = summarize(floor);
    const claimSummary = summarize(claim);
    report.add({ section: SECTION, figure: 'JetStream publish-and-ack floor (R3, 420 B) p50 / p99', value: `${us(floorSummary.p50)} / ${us(floorSummary.p99)}` });
    report.target({ section: SECTION, figure: 'claim p50 on the cluster (p99)', value: `${us(claimSummary.p50)} (${us(claimSummary.p99)})`, reference: `floor ${us(floorSummary.p50)}`, ratio: times(claimSummary.p50 / floorSummary.p50) }, claimSummary.p50 / floorSummary.p50, 2, '≤ 2× floor');
    report.set('jetstream.latency', { floor: floorSummary, claim: claimSummary });
    agent.close();
    await nc.close();

    // Two planes, 16 agents on each, disjoint claim/release cycles: durable operations per second.
    const two = await planeOn(cluster, 'bench');
    planes.push(two.plane);
    const seconds = options.quick ? 3 : 10;
    const until = Date.now() + seconds * 1000;
    let operations = 0;
    const started = Date.now();
    await Promise.all(
      [one, two].flatMap((plane, p) =>
        Array.from({ length: 16 }, async (_, a) => {
          const client = await joined(plane.client, `T${p}X${a}`);
          for (let i = 0; Date.now() < until; i++) {
            const reply = await client.call('fleet_claim_path', { patterns: [`t/${p}/${a}/${i}.ts`], root });
            await client.call('fleet_release_path', { claimIds: reply.claims.map((c) => c.id), root });
            operations += 2;
          }
          client.close();
        }),
      ),
    );
    const opsPerSecond = operations / ((Date.now() - started) / 1000);
    report.add({ section: SECTION, figure: 'durable ops/s, two planes × 16 agents (claim/release)', value: count(opsPerSecond) });
    report.set('jetstream.twoPlanes', { operations, opsPerSecond });

    // Kill the stream's leader node while an agent claims in a loop: the time until a claim is granted again.
    const survivor = await joined(one.client, 'SURVIVOR');
    const leader = await cluster.streamLeader('FLEET_bench');
    const killedAt = Date.now();
    await cluster.kill(leader);
    let servedAt: number | undefined;
    let refusals = 0;
    for (let i = 0; servedAt === undefined && Date.now() - killedAt < 60_000; i++) {
      try {
        const reply = await survivor.call('fleet_claim_path', { patterns: [`after/${i}.ts`], root });
        if (reply.granted) servedAt = Date.now();
      } catch (error) {
        if (!(error instanceof PlaneCallError)) throw error;
        refusals++; // STORE_UNAVAILABLE while a new leader is elected: the caller's retry
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    report.add({ section: SECTION, figure: 'time to serve a claim again after the stream leader node is killed', value: servedAt === undefined ? 'not within 60 s' : ms(servedAt - killedAt), reference: `${refusals} calls refused meanwhile (retryable)` });
    report.set('jetstream.leaderDeath', { ms: servedAt === undefined ? null : servedAt - killedAt, refusals });
    survivor.close();
  } finally {
    for (const plane of planes) await plane.stop();
    await cluster.stop();
  }
}
