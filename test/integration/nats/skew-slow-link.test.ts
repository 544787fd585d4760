// Clock skew measured through links that delay every message, on a real 3-node cluster: a plane
// whose every message reaches the store late (and every reply reaches it late) is not reported
// as skewed by a plane sharing its clock, while a plane whose clock really is 5 s ahead, behind
// the same kind of link, is reported by all the others with an interval that holds the 5 s.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { makeRepo } from '../../support/git-repo.js';
import { startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { callWhenServed, startNatsPlane, stopPlanes, streamEvents } from '../../support/nats-plane.js';
import type { PlaneProcess } from '../../support/plane-process.js';
import { startTcpCut, type TcpCut } from '../../support/tcp-cut.js';

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

/**
 * Each slow link's delays: to the store longer than the bound (a message's one-way delay read as
 * skew crosses it), and short enough that a publish is acknowledged within its 3 s timeout and a
 * connection's handshake within its own.
 */
const SLOW = { toTargetMs: 1_200, toClientMs: 300 };
const BOUND_S = 0.5;
/** The really skewed plane's clock offset. */
const OFFSET_MS = 5_000;

/** The skew sentences of a plane's `fleet status`: [plane, signed offset s, ± s] each. */
async function reportedSkews(client: PlaneClient): Promise<[string, number, number][]> {
  const problems = (await client.call('fleet_status', {})).plane.store?.problems ?? [];
  return problems
    .map((problem) => /^plane (\S+)'s clock is (\d+\.\d) s (ahead of|behind) this one's \(± (\d+\.\d) s; bound /.exec(problem))
    .filter((match) => match !== null)
    .map(([, plane, seconds, way, error]) => [plane!, Number(seconds) * (way === 'behind' ? -1 : 1), Number(error)]);
}

/** The plane each callsign joined through, as the stream recorded it. */
async function planeOf(fleet: string, callsign: string): Promise<string> {
  const joined = (await streamEvents(cluster, fleet)).find((e: FleetEvent) => e.type === 'agent.joined' && e.callsign === callsign);
  return (joined as { plane?: string } | undefined)?.plane ?? assert.fail(`no join of ${callsign} in the stream`);
}

test('a plane whose every message is late is no skew to a plane sharing its clock; a plane 5 s ahead is, with its interval', async () => {
  const root = makeRepo();
  const env = { FLEET_MAX_CLOCK_SKEW: String(BOUND_S) };
  const links: TcpCut[] = [];
  const planes: PlaneProcess[] = [];
  const slowPlane = async (extra: NodeJS.ProcessEnv = {}) => {
    const link = await startTcpCut(cluster.nodes[0]!.clientPort, SLOW);
    links.push(link);
    const plane = await startNatsPlane(`nats://127.0.0.1:${link.port}`, 'slow', { ...env, ...extra });
    planes.push(plane);
    return plane;
  };
  try {
    const slow = await slowPlane();
    const direct = await startNatsPlane(cluster, 'slow', env);
    planes.push(direct);
    const skewed = await slowPlane({ FLEET_CLOCK_OFFSET: String(OFFSET_MS) });
    const clients: [string, PlaneClient][] = [];
    for (const [callsign, plane] of [['ATLAS', slow], ['BRAVO', direct], ['CHARLIE', skewed]] as const) {
      const client = await plane.connect();
      await callWhenServed(client, 'fleet_agent_join', { callsign, runtime: 'script' });
      clients.push([callsign, client]);
    }
    // Rounds of changes, one plane after another: each plane's message is stored after the others'
    // it has applied, so it echoes their clocks back to them, and each closes round trips.
    for (let round = 0; round < 3; round++) {
      for (const [callsign, client] of clients) {
        assert.equal((await callWhenServed(client, 'fleet_claim_path', { patterns: [`src/${callsign}-${round}.ts`], root })).granted, true);
      }
    }

    const skewedPlane = await planeOf('slow', 'CHARLIE');
    const [[, atlas], [, bravo], [, charlie]] = clients as [[string, PlaneClient], [string, PlaneClient], [string, PlaneClient]];
    for (const [name, plane, client] of [['slow', slow, atlas], ['direct', direct, bravo]] as const) {
      const logged = plane.output().match(/clock skew: .*/g) ?? [];
      assert.deepEqual(logged.filter((line) => !line.includes(`plane ${skewedPlane}'s clock is`)), [], `the ${name} plane never took the other's late messages for skew`);
      const skews = await reportedSkews(client);
      assert.equal(skews.length, 1, `the ${name} plane reports the skewed plane, with its interval, and no other: ${JSON.stringify(skews)}`);
      const [reported, seconds, error] = skews[0]!;
      assert.equal(reported, skewedPlane);
      assert.ok(Math.abs(seconds - OFFSET_MS / 1000) <= error + 0.1, `the ${name} plane's interval ${seconds} ± ${error} s holds the 5 s offset`);
    }
    const seen = await reportedSkews(charlie);
    assert.equal(seen.length, 2, `the skewed plane sees both others behind: ${JSON.stringify(seen)}`);
    for (const [, seconds, error] of seen) assert.ok(Math.abs(seconds + OFFSET_MS / 1000) <= error + 0.1, `${seconds} ± ${error} s holds −5 s`);
    console.log(`skews seen through slow links: ${JSON.stringify({ slow: await reportedSkews(atlas), direct: await reportedSkews(bravo), skewed: seen })}`);
    for (const [, client] of clients) client.close();
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${planes.map((p, i) => `--- plane ${i}:\n${p.output()}`).join('\n')}`, { cause: error });
  } finally {
    await stopPlanes(planes);
    for (const link of links) await link.close();
  }
});
