// `fleet demo` with a train slower than its fleet, ended by Ctrl-C while the train builds a batch of
// its work: finished waves with work still on the train wait to leave the queue (no error while it
// runs), the wind-up waits for the train (bounded, saying so), takes off what is still on it, and
// every demo item leaves the queue, exit 0 (issue 26, item 3; DESIGN §16 "Editor").
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { CLI, removeHome, startPlaneProcess, tempHome } from '../../support/plane-process.js';
import { connectTo, until } from './support.js';

/** The train's build while the fleet runs: slower than the fleet accepts work at pace 16, so finished waves still have items landing. */
const SLOW_BUILD_MS = 4_000;
/** The build of the batch the demo is interrupted in: longer than the demo waits for the train on its way out. */
const STUCK_BUILD_MS = 120_000;
const wavesSeeded = (stdout: string) => Math.max(0, ...[...stdout.matchAll(/seeded wave (\d+)/g)].map((match) => Number(match[1])));
const sleepCommand = (ms: number) => `'${process.execPath}' -e "setTimeout(() => {}, ${ms})"`;

test('fleet demo with a slow train, interrupted while an item is on it, reports no error, exits 0 and leaves an empty queue', { timeout: 300_000 }, async (t) => {
  const home = tempHome();
  const plane = await startPlaneProcess({ home });
  const operator = await plane.connectAsOperator();
  t.after(async () => {
    operator.close();
    await plane.stop();
    removeHome(home);
  });
  const child = spawn(process.execPath, [CLI, 'demo', '--pace', '16', '--seed', '5'], { env: { ...process.env, FLEET_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const context = () => `\n--- stdout (tail) ---\n${stdout.slice(-4000)}\n--- stderr ---\n${stderr.slice(-2000)}`;

  await until(() => /repository {2}\S+/.test(stdout), 30_000, `the demo never started${context()}`);
  const repo = /repository {2}(\S+)/.exec(stdout)![1]!;
  // The operator slows the train down (what is not given keeps the demo's settings).
  await operator.call('fleet_integrate_configure', { root: repo, buildCommand: sleepCommand(SLOW_BUILD_MS), timeoutSeconds: 600 });
  // A finished wave (its epic done once its tasks are accepted) with a task still landing, behind a newer finished wave: the RTE's top-up now removes finished waves but the newest.
  let landing: string | undefined;
  await until(
    async () => {
      landing = await landingInOlderFinishedWave(operator);
      return landing !== undefined || stderr !== '' || child.exitCode !== null;
    },
    200_000,
    `no finished wave had a task still landing behind a newer finished one${context()}`,
  );
  await until(async () => stderr !== '' || child.exitCode !== null || (await landingInOlderFinishedWave(operator)) !== landing, 60_000, `${landing} never landed${context()}`);

  // The next batch builds longer than the wind-up waits: caught building, it is still on the train when the wait ends.
  await operator.call('fleet_integrate_configure', { root: repo, buildCommand: sleepCommand(STUCK_BUILD_MS) });
  const batchesBefore = stdout.split('train: building').length;
  await until(() => stdout.split('train: building').length > batchesBefore || child.exitCode !== null, 60_000, `the train built no batch with the long build${context()}`);
  const building = await onTrain(operator, repo);
  child.kill('SIGINT');
  const code = await Promise.race([exited, new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 60_000))]);
  t.diagnostic(`${landing} was landing in a finished wave behind a newer one; SIGINT after ${wavesSeeded(stdout)} waves, while the train held ${building.join(', ')}`);
  assert.notEqual(code, 'late', `the demo did not exit within 60 s of SIGINT${context()}`);
  assert.equal(stderr, '', `the demo reported no errors${context()}`);
  assert.equal(code, 0, `the demo exited with ${code}${context()}`);
  assert.ok(building.length > 0, `the demo was interrupted while the train held its work${context()}`);
  assert.match(stdout, /TRAIN +waiting for the train to land /, 'the wind-up says it waits for the train');
  assert.match(stdout, /TRAIN +the train still holds .* taken off it and rolled back/, 'the wind-up says what it took off the train');
  assert.match(stdout, /Demo ended \(interrupted\)/);
  const left = (await operator.call('fleet_work_list', {})).items;
  assert.deepEqual(left.map((item) => `${item.id} ${item.kind} ${item.status} ${item.title}`), [], `every demo item left the queue${context()}`);
});

/** A task still landing in a finished wave older than the newest finished one, if any. */
async function landingInOlderFinishedWave(operator: PlaneClient): Promise<string | undefined> {
  const items = (await operator.call('fleet_work_list', {})).items;
  const finishedEpics = items.filter((item) => item.kind === 'epic' && item.status === 'done').map((item) => item.id);
  const older = new Set(finishedEpics.slice(0, -1));
  return items.find((item) => item.parent !== undefined && older.has(item.parent) && item.status === 'landing')?.id;
}

async function onTrain(operator: PlaneClient, root: string): Promise<string[]> {
  const status = await operator.call('fleet_integrate_status', { root });
  return status.entries.filter((entry) => entry.status === 'queued' || entry.status === 'building').map((entry) => entry.itemId);
}

test('fleet demo whose plane stops under it says so on stderr and exits 1', { timeout: 120_000 }, async (t) => {
  const home = tempHome();
  const plane = await startPlaneProcess({ home });
  t.after(async () => {
    await plane.stop();
    removeHome(home);
  });
  const child = spawn(process.execPath, [CLI, 'demo', '--pace', '4', '--seed', '5'], { env: { ...process.env, FLEET_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const context = () => `\n--- stdout (tail) ---\n${stdout.slice(-3000)}\n--- stderr ---\n${stderr.slice(-2000)}`;
  await until(() => /ECHO +joined as rte/.test(stdout), 30_000, `the demo's agents never joined${context()}`);

  await plane.stop();
  const code = await Promise.race([exited, new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 30_000))]);
  assert.equal(code, 1, `the demo exited with ${code}${context()}`);
  assert.match(stdout, /Demo ended \(plane gone\)/);
  // Whose connection ended and why, where a caller that keeps only stderr (or only the exit code) looks.
  assert.match(stderr, /^fleet demo: (ATLAS|BOLT|COMET|DELTA|ECHO)'s connection ended: the plane closed the connection \(code 1001: plane shutting down\); the demo ends \(the plane's log: /m, context());
});

test('fleet demo whose agent cannot start names it and says why on stderr, with the refusal\'s exit code', { timeout: 120_000 }, async (t) => {
  const home = tempHome();
  const plane = await startPlaneProcess({ home });
  // Live agents hold every callsign ATLAS may take (ATLAS, ATLAS-2 … ATLAS-9).
  const holders: PlaneClient[] = [];
  t.after(async () => {
    for (const holder of holders) holder.close();
    await plane.stop();
    removeHome(home);
  });
  for (let n = 1; n <= 9; n++) {
    const holder = await connectTo(home);
    holders.push(holder);
    await holder.call('fleet_agent_join', { callsign: n === 1 ? 'ATLAS' : `ATLAS-${n}`, runtime: 'test', role: 'builder' });
  }
  const child = spawn(process.execPath, [CLI, 'demo', '--pace', '4', '--seed', '5'], { env: { ...process.env, FLEET_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const demo = { stdout: '', stderr: '', status: null as number | null };
  child.stdout.on('data', (chunk: Buffer) => (demo.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (demo.stderr += chunk.toString()));
  demo.status = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  assert.equal(demo.status, 3, `the demo exited with ${demo.status} (3: the plane refused)\n${demo.stdout}\n${demo.stderr}`);
  assert.match(demo.stderr, /^fleet demo: ATLAS could not start:\nfleet demo: ATLAS-9 is live on the roster/m, demo.stderr);
  const roster = await holders[0]!.call('fleet_roster', {});
  assert.deepEqual(roster.agents.map((agent) => agent.callsign).filter((callsign) => !/^ATLAS(-\d)?$/.test(callsign)), [], 'no demo agent is left on the roster');
});
