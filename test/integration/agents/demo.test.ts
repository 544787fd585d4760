import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, describe, test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { CLI, removeHome, tempHome } from '../../support/plane-process.js';
import { connectAsOperatorTo, eventsOf, shutdownPlane, until } from './support.js';

const DEMO_AGENTS = ['ATLAS', 'BOLT', 'COMET', 'DELTA', 'ECHO'];
const BUILDERS = ['ATLAS', 'BOLT', 'COMET'];

/** A pull grants the item's paths; claims moved by an accepted handoff say where they came from. */
const isPullGrant = (event: FleetEvent) => event.type === 'claim.granted' && event.reason?.startsWith('work ') === true && event.transferredFrom === undefined;

describe('fleet demo: a simulated fleet runs unattended, obeys the switch and completes work', () => {
  const home = tempHome();
  let operator: PlaneClient | undefined;

  after(async () => {
    operator?.close();
    await shutdownPlane(home);
    removeHome(home);
  });

  test('runs for its duration with no errors; pause and drain are obeyed; work reaches done', { timeout: 120_000 }, async () => {
    const child = spawn(process.execPath, [CLI, 'demo', '--duration', '30', '--pace', '4', '--seed', '42'], {
      env: { ...process.env, FLEET_HOME: home, FLEET_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const context = () => `\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;

    try {
      await until(() => /accepted wk_\S+ ".*": done/.test(stdout), 30_000, `no work was accepted as done${context()}`);
      assert.match(stdout, /In another terminal, watch and steer it:\n\s+fleet status --watch --home /);
      operator = await connectAsOperatorTo(home);
      const roster = async () => (await operator!.call('fleet_roster', {})).agents.filter((a) => DEMO_AGENTS.includes(a.callsign));

      // Pause: every agent goes idle and nobody pulls work.
      await operator.call('fleet_control_set', { state: 'pause', reason: 'test pause' });
      const pausedAt = (await operator.call('fleet_status', {})).plane.seq;
      await until(async () => (await roster()).every((a) => a.status === 'idle'), 10_000, `not every demo agent went idle in pause${context()}`);
      assert.ok((await roster()).some((a) => a.note?.includes('paused')), 'agents say why they are idle');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const resumedAt = (await operator.call('fleet_status', {})).plane.seq;
      await operator.call('fleet_control_set', { state: 'run' });
      const duringPause = (await eventsOf(home)).filter((e) => e.seq > pausedAt && e.seq <= resumedAt);
      assert.deepEqual(duringPause.filter(isPullGrant), [], 'no work was pulled while paused');
      assert.deepEqual(duringPause.filter((e) => e.type === 'work.added'), [], 'no work was added while paused');

      // Back to work, then drain: builders finish what they hold and pull nothing new.
      await until(async () => (await eventsOf(home)).some((e) => e.seq > resumedAt && isPullGrant(e)), 15_000, `nobody pulled work after the resume${context()}`);
      await operator.call('fleet_control_set', { state: 'drain', reason: 'test drain' });
      const drainedAt = (await operator.call('fleet_status', {})).plane.seq;
      await until(
        async () => (await roster()).filter((a) => BUILDERS.includes(a.callsign)).every((a) => a.status === 'idle' && a.note?.startsWith('draining')),
        15_000,
        `the builders did not wind down in drain${context()}`,
      );
      const duringDrain = (await eventsOf(home)).filter((e) => e.seq > drainedAt);
      assert.deepEqual(duringDrain.filter(isPullGrant), [], 'no work was pulled while draining');
      await operator.call('fleet_control_set', { state: 'run' });

      const code = await exited;
      assert.equal(code, 0, `the demo exited with ${code}${context()}`);
      assert.equal(stderr, '', 'no errors');
      assert.match(stdout, /Demo ended \(after 30 s\)/);
      assert.match(stdout, /noticed the fleet switch: pause \(test pause\)/);
      assert.match(stdout, /noticed the fleet switch: drain \(test drain\)/);

      const done = (await eventsOf(home)).filter((e) => e.type === 'work.transitioned' && e.status === 'done');
      assert.ok(done.length >= 3, `only ${done.length} items reached done${context()}`);
      const digest = await operator.call('fleet_digest', {});
      assert.ok(digest.digest.workCompleted.length >= 3, 'the digest shows the completed work');
      const events = await eventsOf(home);
      assert.ok(events.some((e) => e.type === 'handoff.resolved' && e.status === 'accepted'), 'a handoff was made and accepted');
      assert.ok(events.some((e) => e.type === 'work.transitioned' && e.status === 'verified'), 'a verifier passed work');

      // On the way out the demo leaves nothing behind that a real agent could pull or trip over.
      assert.deepEqual((await roster()).map((a) => a.callsign), [], 'every demo agent left');
      assert.deepEqual((await operator.call('fleet_status', {})).claims, []);
      const left = (await operator.call('fleet_work_list', {})).items;
      assert.deepEqual(left.map((i) => `${i.id} ${i.status}`), [], "the demo's items, finished or rolled back, left the shared queue");
    } finally {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
    }
  });
});
