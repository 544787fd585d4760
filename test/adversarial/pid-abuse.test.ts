// Pid abuse (DESIGN §11, §12): pids the plane must never register or signal. Joins naming a dead
// pid, a zombie, pid 1 or the plane itself are refused while other clients are served; the stop
// backstop never signals a pid recorded without a start time, nor one that now names another process.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { fleetEventSchema, type FleetEvent, type FleetEventInput } from '../../contracts/index.js';
import { PlaneCallError, type PlaneClient } from '../../server/client/plane-client.js';
import { snapshotSchema, type Snapshot } from '../../server/plane/persistence/snapshot-format.js';
import { isAlive } from '../../server/plane/processes/process-identity.js';
import { EmbeddedStore } from '../../server/store/embedded-store.js';
import { EventWatcher } from '../support/event-watcher.js';
import { removeHome, startPlaneProcess, tempHome } from '../support/plane-process.js';
import { SeededRandom, testSeed } from '../support/seeded-random.js';
import { startZombie } from '../support/zombie.js';

const seed = testSeed();
console.log(`pid-abuse: seed ${seed} (rerun: FLEET_TEST_SEED=${seed})`);
const ANSWER_WITHIN_MS = 50;

function startRuntime(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore' });
}

/** A pid that ran a moment ago and has exited (and been reaped): nothing runs under it now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

async function refusal(client: PlaneClient, callsign: string, pid: number): Promise<PlaneCallError> {
  try {
    await client.call('fleet_agent_join', { callsign, runtime: 'test', pid });
  } catch (error) {
    if (error instanceof PlaneCallError) return error;
    throw error;
  }
  assert.fail(`a join with pid ${pid} was accepted`);
}

test('joins naming a dead pid, a zombie, pid 1 or the plane are refused with INVALID_PARAMS, while others are served', async (t) => {
  const random = new SeededRandom(seed);
  const plane = await startPlaneProcess();
  t.after(async () => (await plane.stop(), removeHome(plane.home)));
  const { pid: zombiePid, parent } = await startZombie();
  t.after(() => parent.kill('SIGKILL'));
  const abuser = await plane.connect();
  const bystander = await plane.connect();
  t.after(() => (abuser.close(), bystander.close()));
  const dead = await deadPid();
  const cases: [number, RegExp][] = [
    [1, /pid 1 is the init process/],
    [plane.child.pid!, /is the plane itself/],
    [dead, new RegExp(`no process with pid ${dead} runs`)],
    [zombiePid, new RegExp(`no process with pid ${zombiePid} runs`)],
  ];
  await bystander.call('fleet_control_get', {}); // the first call of a connection pays for warming up
  const abuse = (async () => {
    for (let round = 0; round < 50; round++) {
      const [pid, message] = random.pick(cases);
      const error = await refusal(abuser, `ABUSER${round}`, pid);
      assert.equal(error.errorName, 'INVALID_PARAMS', `pid ${pid}: ${error.message} (seed ${seed})`);
      assert.match(error.message, message);
    }
  })();
  const waits: number[] = [];
  for (let i = 0; i < 21; i++) {
    const started = performance.now();
    await bystander.call('fleet_control_get', {});
    waits.push(performance.now() - started);
  }
  await abuse;
  // The median, because this machine's scheduler (2 cores, many test processes) can delay any one
  // reply, refused joins or not; the slowest is printed beside it.
  const median = waits.sort((a, b) => a - b)[10]!;
  t.diagnostic(`another client's call while the abuse ran: median ${median.toFixed(1)} ms, slowest ${waits[20]!.toFixed(1)} ms`);
  assert.ok(median <= ANSWER_WITHIN_MS, `another client waited ${median.toFixed(1)} ms (median; seed ${seed})`);
  const roster = await bystander.call('fleet_roster', { includeGone: true });
  assert.deepEqual(roster.agents, [], 'no refused join left an agent behind');
});

/**
 * Writes a log as an older plane (or one without /proc) would have left it: an agent whose pid was
 * recorded without a start time, and one whose pid now names another process (a reused pid).
 */
async function seedLog(home: string, events: FleetEventInput[]): Promise<void> {
  const store = new EmbeddedStore<Snapshot, FleetEvent>({ dir: join(home, 'state'), snapshotSchema, eventSchema: fleetEventSchema });
  await store.open();
  const at = Date.now();
  await store.append(events.map((event, i) => fleetEventSchema.parse({ ...event, seq: i + 1, at })));
  await store.close();
}

test('the stop backstop never signals a pid without a start time nor a pid that now names another process', async (t) => {
  const noStart = startRuntime();
  const reused = startRuntime();
  const stubborn = startRuntime();
  t.after(() => [noStart, reused, stubborn].forEach((child) => child.kill('SIGKILL')));
  const home = tempHome();
  const joined = { type: 'agent.joined', runtime: 'old', role: 'worker', tier: 'local', tokenHash: 'x' } as const;
  await seedLog(home, [
    { ...joined, agentId: 'ag-nostart', callsign: 'NOSTART', pid: noStart.pid! },
    { ...joined, agentId: 'ag-reused', callsign: 'REUSED', pid: reused.pid!, pidStart: '1' },
  ]);
  const plane = await startPlaneProcess({ home, env: { FLEET_STOP_GRACE: '0.5' } });
  t.after(async () => (await plane.stop(), removeHome(home)));
  const agent = await plane.connect();
  const watcher = await EventWatcher.follow(await plane.connect());
  t.after(() => (agent.close(), watcher.client.close()));
  // The reused pid is seen at once: the process registered under it is gone, whatever runs there now.
  await watcher.waitFor((e) => e.type === 'agent.process_exited' && e.agentId === 'ag-reused', 0, 5_000, 'REUSED ended as process_exited');
  const control = await agent.call('fleet_agent_join', { callsign: 'STUBBORN', runtime: 'test', pid: stubborn.pid! });
  const from = watcher.events.length;
  await watcher.client.call('fleet_control_set', { state: 'stop', reason: 'end of night' });
  // The backstop signals every candidate in one pass: once STUBBORN is signalled, the pass is over.
  await watcher.waitFor((e) => e.type === 'agent.terminated' && e.agentId === control.agentId, from, 10_000, 'the registered agent signalled');
  const terminated = watcher.events.filter((e) => e.type === 'agent.terminated').map((e) => (e.type === 'agent.terminated' ? e.agentId : ''));
  assert.deepEqual(terminated, [control.agentId]);
  assert.ok(isAlive(noStart.pid!), 'the pid recorded without a start time was signalled');
  assert.ok(isAlive(reused.pid!), 'the reused pid was signalled');
});
