import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { WebSocket } from 'ws';
import { eventNotificationSchema, type FleetEvent } from '../../contracts/index.js';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { isAlive } from '../../server/plane/processes/process-identity.js';
import { makeRepo } from '../support/git-repo.js';
import { removeHome, startPlaneProcess, tempHome } from '../support/plane-process.js';
import { runCli } from '../support/run-cli.js';

async function joinAs(client: PlaneClient, callsign: string, extra: { pid?: number } = {}) {
  return client.call('fleet_agent_join', { callsign, runtime: 'test', ...extra });
}

/** Collects pushed events until `until` returns true. */
function waitForEvent(client: PlaneClient, until: (event: FleetEvent) => boolean): Promise<FleetEvent> {
  return new Promise((resolve) => {
    const stop = client.onNotification((method, params) => {
      if (method !== 'fleet_event') return;
      const { event } = eventNotificationSchema.parse(params);
      if (until(event)) {
        stop();
        resolve(event);
      }
    });
  });
}

test('claims, fences and the control switch survive a clean restart and a kill -9', async (t) => {
  const home = tempHome();
  const repo = makeRepo();
  t.after(() => (removeHome(home), removeHome(repo)));
  let plane = await startPlaneProcess({ home });
  let client = await plane.connect();
  const joined = await joinAs(client, 'ATLAS');
  const first = await client.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
  await client.call('fleet_control_set', { state: 'drain', reason: 'release day' });
  client.close();
  assert.equal(await plane.stop(), 0);

  plane = await startPlaneProcess({ home });
  client = await plane.connect();
  await client.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'test', sessionToken: joined.sessionToken });
  const control = await client.call('fleet_control_get', {});
  assert.equal(control.state, 'drain');
  assert.equal(control.reason, 'release day');
  const second = await client.call('fleet_claim_path', { patterns: ['docs/**'], root: repo });
  assert.ok(second.claims[0]!.fence > first.claims[0]!.fence, 'fences keep increasing across restarts');
  client.close();
  await plane.kill();

  plane = await startPlaneProcess({ home });
  t.after(() => plane.stop());
  client = await plane.connect();
  const status = await client.call('fleet_status', {});
  assert.deepEqual(status.claims.map((c) => c.pattern).sort(), ['docs/**', 'src/**']);
  assert.equal(status.control.state, 'drain');
  client.close();
});

/** The home of a plane that was stopped cleanly (so it wrote its snapshot) while ATLAS held src/** of `repo`. */
async function stoppedHomeWithAClaim(t: TestContext): Promise<{ home: string; repo: string }> {
  const home = tempHome();
  const repo = makeRepo();
  t.after(() => (removeHome(home), removeHome(repo)));
  const plane = await startPlaneProcess({ home });
  const client = await plane.connect();
  await joinAs(client, 'ATLAS');
  await client.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
  client.close();
  await plane.stop();
  return { home, repo };
}

test('a corrupt snapshot or a corrupt log line makes the plane refuse to start, naming the file', async (t) => {
  const { home, repo } = await stoppedHomeWithAClaim(t);

  const snapshot = join(home, 'state', 'snapshot.json');
  const good = readFileSync(snapshot, 'utf8');
  writeFileSync(snapshot, good.slice(0, good.length / 2));
  const refused = await runCli(['serve'], { home, cwd: repo });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /snapshot\.json/);
  assert.ok(!readdirSync(home).includes('plane.json'), 'a refused plane never announces itself');

  writeFileSync(snapshot, good);
  const segments = readdirSync(join(home, 'state', 'events')).sort();
  const segment = join(home, 'state', 'events', segments[segments.length - 1]!);
  const lines = readFileSync(segment, 'utf8');
  writeFileSync(segment, `${lines}{"seq": "garbage"}\n${lines.split('\n')[0]}\n`);
  const midLog = await runCli(['serve'], { home, cwd: repo });
  assert.equal(midLog.code, 1);
  assert.match(midLog.stderr, new RegExp(segments[segments.length - 1]!.replace('.', '\\.')));
});

test('data after a run of zeros in the live log segment is cut off with a notice in the plane log, and the segment as found is kept', async (t) => {
  const { home, repo } = await stoppedHomeWithAClaim(t);

  // As a crash can leave it: a batch whose first page never reached the disk and whose next did.
  const events = join(home, 'state', 'events');
  const name = readdirSync(events).sort().at(-1)!;
  const records = readFileSync(join(events, name));
  const lastLine = records.toString('utf8').trimEnd().split('\n').at(-1)!;
  writeFileSync(join(events, name), Buffer.concat([records, Buffer.alloc(4096), Buffer.from(`${lastLine}\n`), Buffer.alloc(1024)]));

  const plane = await startPlaneProcess({ home });
  t.after(() => plane.stop());
  const copy = readdirSync(events).find((file) => file.startsWith(`${name}.cut-`));
  assert.ok(copy, 'the segment as found is kept beside it');
  assert.match(plane.output(), new RegExp(`store: .*data follows a run of zeros.*kept in .*${copy.replace(/[.]/g, '\\.')}`));
  const again = await plane.connect();
  t.after(() => again.close());
  const check = await again.call('fleet_check_path', { paths: ['src/a.ts'], root: repo });
  assert.equal(check.allowed, false, "ATLAS's claim, acknowledged before the crash, is still there");
});

test('a silent agent turns unknown after one TTL and its claims expire after two, with the reason logged', async (t) => {
  const repo = makeRepo();
  // TTL 60 s at 100× speed: unknown after 0.6 s, expired after 1.2 s of real time.
  const plane = await startPlaneProcess({ env: { FLEET_AGENT_TTL: '60', FLEET_TIME_SCALE: '100' } });
  t.after(async () => (await plane.stop(), removeHome(plane.home), removeHome(repo)));
  const agent = await plane.connect();
  const observer = await plane.connect();
  t.after(() => (agent.close(), observer.close()));
  await joinAs(agent, 'SLOW');
  await agent.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
  await observer.call('fleet_events_subscribe', {});
  const unknown = waitForEvent(observer, (e) => e.type === 'agent.unknown');
  const released = waitForEvent(observer, (e) => e.type === 'claim.released');
  const expired = waitForEvent(observer, (e) => e.type === 'agent.expired');
  await unknown;
  const release = await released;
  assert.equal(release.type === 'claim.released' && release.reason, 'expired');
  await expired;
  const check = await observer.call('fleet_check_path', { paths: ['src/a.ts'], root: repo });
  assert.deepEqual(check.results[0]!.holders, [], 'an expired claim is no claim');
  const again = await observer.call('fleet_agent_join', { callsign: 'SLOW', runtime: 'test' });
  assert.equal(again.rejoined, false, 'the callsign of an expired agent is free again');
});

test('a claim with waitSeconds is granted as soon as the holder releases', async (t) => {
  const repo = makeRepo();
  const plane = await startPlaneProcess();
  t.after(async () => (await plane.stop(), removeHome(plane.home), removeHome(repo)));
  const holder = await plane.connect();
  const waiter = await plane.connect();
  t.after(() => (holder.close(), waiter.close()));
  await joinAs(holder, 'ATLAS');
  await joinAs(waiter, 'BOLT');
  const held = await holder.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
  const waiting = waiter.call('fleet_claim_path', { patterns: ['src/a.ts'], root: repo, waitSeconds: 30 });
  await holder.call('fleet_release_path', { claimIds: [held.claims[0]!.id] });
  const granted = await waiting;
  assert.equal(granted.granted, true);
  assert.ok(granted.claims[0]!.fence > held.claims[0]!.fence);
});

test("stop's backstop ends an agent that registered a pid and ignored the stop, and logs it", async (t) => {
  const repo = makeRepo();
  const stubborn = spawn('sleep', ['600'], { stdio: 'ignore' });
  t.after(() => stubborn.kill('SIGKILL'));
  const plane = await startPlaneProcess({ env: { FLEET_STOP_GRACE: '1' } });
  t.after(async () => (await plane.stop(), removeHome(plane.home), removeHome(repo)));
  const agent = await plane.connect();
  const operator = await plane.connectAsOperator();
  t.after(() => (agent.close(), operator.close()));
  await joinAs(agent, 'STUBBORN', { pid: stubborn.pid! });
  await operator.call('fleet_events_subscribe', {});
  const terminated = waitForEvent(operator, (e) => e.type === 'agent.terminated');
  const exited = new Promise<NodeJS.Signals | null>((resolve) => stubborn.once('exit', (_code, signal) => resolve(signal)));
  await operator.call('fleet_control_set', { state: 'stop', reason: 'end of night' });
  const event = await terminated;
  assert.equal(event.type === 'agent.terminated' && event.signal, 'SIGTERM');
  assert.equal(await exited, 'SIGTERM');
  assert.equal(isAlive(stubborn.pid!), false);
});

test('temp files a killed plane left beside ledger.json, plane.json and the token are removed at the next start', async (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const leftovers = ['.ledger.json.999-abc123.tmp', '.plane.json.999-def456.tmp', '.token.999-0a1b2c.tmp'];
  for (const name of leftovers) writeFileSync(join(home, name), '{"half');
  writeFileSync(join(home, '.notes.999-abc123.tmp'), 'not the plane’s');
  const plane = await startPlaneProcess({ home });
  try {
    const temps = readdirSync(home).filter((name) => name.endsWith('.tmp'));
    assert.deepEqual(temps, ['.notes.999-abc123.tmp'], 'only the plane’s own leftovers are removed');
  } finally {
    await plane.stop();
  }
});

test('a client that never answers the close frame does not hold a clean stop for long', { timeout: 60_000 }, async (t) => {
  const plane = await startPlaneProcess();
  t.after(() => removeHome(plane.home));
  t.after(() => plane.kill());
  const stuck = new WebSocket(`ws://127.0.0.1:${plane.port}/`, { headers: { authorization: `Bearer ${plane.token}` } });
  await new Promise((resolve, reject) => stuck.once('open', resolve).once('error', reject));
  stuck.on('error', () => undefined); // the plane cuts it off: that is the point
  stuck.pause(); // reads nothing more, so the plane's close frame is never answered (a hung agent)
  const started = Date.now();
  assert.equal(await plane.stop(), 0);
  const took = Date.now() - started;
  assert.ok(took < 10_000, `the stop took ${took} ms (ws waits 30 s for a close reply by itself)`);
  assert.match(plane.output(), /did not answer the close frame/);
  stuck.terminate();
});
