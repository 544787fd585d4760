// Start-up faults of the JetStream store, each refused with a message naming what failed, and a
// clock skew between planes detected and reported.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { jetstreamManager } from '@nats-io/jetstream';
import { freePort, startNatsCluster, type NatsCluster } from '../../support/nats-cluster.js';
import { natsConnection, startNatsPlane, stopPlanes } from '../../support/nats-plane.js';
import { CLI, removeHome, tempHome } from '../../support/plane-process.js';

let cluster: NatsCluster;
before(async () => (cluster = await startNatsCluster()));
after(async () => cluster?.stop());

/** Runs `fleet serve` expecting it to refuse to start: its exit code and log. */
async function refusedStart(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ code: number | null; log: string }> {
  const home = tempHome();
  try {
    const child = spawn(process.execPath, [CLI, 'serve', '--home', home, ...args], { env: { ...process.env, FLEET_PORT: '0', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, log };
  } finally {
    removeHome(home);
  }
}

test('a wrong NATS URL fails start-up naming the URL', async () => {
  const port = await freePort(); // nothing listens there
  const { code, log } = await refusedStart({ FLEET_NATS_START_TIMEOUT: '1' }, ['--store', `nats://127.0.0.1:${port}`]);
  assert.equal(code, 2);
  assert.match(log, new RegExp(`cannot reach NATS at nats://127\\.0\\.0\\.1:${port} within 1 s`));
});

test('a malformed --store is refused as bad input', async () => {
  const { code, log } = await refusedStart({ FLEET_STORE: 'http://127.0.0.1:4222' });
  assert.equal(code, 2);
  assert.match(log, /FLEET_STORE=http:\/\/127\.0\.0\.1:4222: .* is not nats:\/\/HOST:PORT/);
});

test('credentials: an unreadable FLEET_NATS_CREDS and a server that wants credentials are named', async () => {
  const missing = join(tempHome(), 'nope.creds');
  const unreadable = await refusedStart({ FLEET_STORE: cluster.urls, FLEET_NATS_CREDS: missing });
  assert.equal(unreadable.code, 2);
  assert.match(unreadable.log, new RegExp(`FLEET_NATS_CREDS=${missing} cannot be read`));

  const dir = tempHome('fleet-nats-auth-');
  const port = await freePort();
  writeFileSync(join(dir, 'auth.conf'), `listen: 127.0.0.1:${port}\nauthorization { user: fleet, password: secret }\njetstream { store_dir: "${join(dir, 'js')}" }\n`);
  const server = spawn('nats-server', ['-c', join(dir, 'auth.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    await new Promise<void>((resolve) => server.stderr!.setEncoding('utf8').on('data', (chunk: string) => chunk.includes('Server is ready') && resolve()));
    const refused = await refusedStart({ FLEET_STORE: `nats://127.0.0.1:${port}` });
    assert.equal(refused.code, 2);
    assert.match(refused.log, /refused the credentials \(none given: set FLEET_NATS_CREDS/);
  } finally {
    server.kill('SIGKILL');
    removeHome(dir);
  }
});

test('a stream of another format (or not made by fleet-coordination) is refused with the versions named', async () => {
  const nc = await natsConnection(cluster);
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'FLEET_future', subjects: ['fleet.future.log'], description: 'fleet-coordination event log, format 9, created by plane 9.0.0' });
    const future = await refusedStart({ FLEET_STORE: cluster.urls, FLEET_NAME: 'future' });
    assert.equal(future.code, 2);
    assert.match(future.log, /stream FLEET_future holds format 9 \(created by plane 9\.0\.0\); this plane \(\S+\) reads format 1/);
    await jsm.streams.add({ name: 'FLEET_alien', subjects: ['fleet.alien.log'] });
    const alien = await refusedStart({ FLEET_STORE: cluster.urls, FLEET_NAME: 'alien' });
    assert.equal(alien.code, 2);
    assert.match(alien.log, /stream FLEET_alien exists but was not created by fleet-coordination/);
  } finally {
    await nc.close();
  }
});

test('a clock skew between planes beyond the bound is reported in the log and in fleet status', async () => {
  const steady = await startNatsPlane(cluster, 'skew', { FLEET_MAX_CLOCK_SKEW: '2' });
  const skewed = await startNatsPlane(cluster, 'skew', { FLEET_CLOCK_OFFSET: '7000' });
  try {
    const client = await steady.connect();
    await client.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'script' }); // a message of the steady plane's own
    const other = await skewed.connect();
    await other.call('fleet_agent_join', { callsign: 'BRAVO', runtime: 'script' });
    await client.call('fleet_agent_heartbeat', {}); // decided after BRAVO's join: the steady plane has applied it
    const problems = (await client.call('fleet_status', {})).plane.store?.problems ?? [];
    assert.ok(problems.some((p) => /clock is 7\.\d s ahead of this one's \(± \d+\.\d s; bound 2 s\)/.test(p)), problems.join('; '));
    assert.match(steady.output(), /clock skew: plane \S+'s clock is 7\.\d s ahead/);
    client.close();
    other.close();
  } finally {
    await stopPlanes([steady, skewed]);
  }
});
