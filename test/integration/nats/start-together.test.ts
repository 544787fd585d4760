// Machines that boot together: a new 3-node cluster and two planes of a new fleet started at the
// same instant, several times. Both planes wait for JetStream (saying so in their log), one creates
// the stream, the other finds it, and they share one fleet. A cluster that never forms a quorum
// stops start-up after the bounded budget with an error naming the servers and what to check.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { startNatsCluster } from '../../support/nats-cluster.js';
import { startNatsPlane, stopPlanes } from '../../support/nats-plane.js';
import { CLI, removeHome, tempHome } from '../../support/plane-process.js';

const TRIALS = 3;

for (let trial = 1; trial <= TRIALS; trial++) {
  test(`trial ${trial}: two planes started with their cluster both start and share one fleet`, async () => {
    const cluster = await startNatsCluster(3, { waitReady: false });
    const started = await Promise.allSettled([startNatsPlane(cluster.urlsFrom('n1'), 'boot'), startNatsPlane(cluster.urlsFrom('n2'), 'boot')]);
    const planes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      assert.deepEqual(
        started.flatMap((s) => (s.status === 'rejected' ? [(s.reason as Error).message] : [])),
        [],
        'both planes started',
      );
      const [first, second] = [await planes[0]!.connect(), await planes[1]!.connect()];
      await first.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' });
      await second.call('fleet_agent_join', { callsign: 'BRAVO', runtime: 'script' });
      await first.call('fleet_agent_heartbeat', {}); // decided after BRAVO's join: the first plane has applied it
      const roster = (await first.call('fleet_roster', {})).agents.map((a) => a.callsign).sort();
      assert.deepEqual(roster, ['ATLAS', 'BRAVO'], 'one fleet: each plane sees the other\'s agent');
      first.close();
      second.close();
    } finally {
      await stopPlanes(planes);
      await cluster.stop();
    }
  });
}

test('a cluster that never forms a quorum: start-up waits, saying so, then stops naming the servers and what to check', async () => {
  const cluster = await startNatsCluster(3, { waitReady: false });
  await cluster.kill('n2');
  await cluster.kill('n3');
  const home = tempHome();
  try {
    const child = spawn(process.execPath, [CLI, 'serve', '--home', home], {
      env: { ...process.env, FLEET_PORT: '0', FLEET_STORE: cluster.urlsFrom('n1'), FLEET_NATS_START_TIMEOUT: '4' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 2, log);
    assert.match(log, /waiting for JetStream/, 'the wait is in the log');
    assert.match(log, new RegExp(`JetStream at ${cluster.urlsFrom('n1').replace(/[./]/g, '\\$&')} did not answer within 4 s`));
    assert.match(log, /quorum/);
  } finally {
    removeHome(home);
    await cluster.stop();
  }
});
