import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { after, describe, test } from 'node:test';
import type { FleetEvent } from '../../../contracts/index.js';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { CLI, removeHome, tempHome } from '../../support/plane-process.js';
import { connectAsOperatorTo, eventsOf, shutdownPlane, until } from './support.js';

const DEMO_AGENTS = ['ATLAS', 'BOLT', 'COMET', 'DELTA', 'ECHO'];
const BUILDERS = ['ATLAS', 'BOLT', 'COMET'];

/**
 * A pull grants the item's paths; claims moved by an accepted handoff say where they came from, and
 * those a completed item keeps until it lands say which item they are held for.
 */
const isPullGrant = (event: FleetEvent) => event.type === 'claim.granted' && event.reason?.startsWith('work ') === true && event.transferredFrom === undefined && event.heldFor === undefined;

/** Whether `commit` is on the sample repository's `main` (the train's target). */
const onMain = (repo: string, commit: string) => {
  try {
    execFileSync('git', ['-C', repo, 'merge-base', '--is-ancestor', commit, 'refs/heads/main']);
    return true;
  } catch {
    return false;
  }
};

describe('fleet demo: a simulated fleet runs unattended, obeys the switch and completes work', () => {
  const home = tempHome();
  let operator: PlaneClient | undefined;
  let repo: string | undefined;

  after(async () => {
    operator?.close();
    await shutdownPlane(home);
    removeHome(home);
    if (repo !== undefined) removeHome(repo);
  });

  test('runs with no errors until Ctrl-C; pause and drain are obeyed; work reaches done and lands through the train', { timeout: 240_000 }, async () => {
    const child = spawn(process.execPath, [CLI, 'demo', '--pace', '4', '--seed', '42', '--keep'], {
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
      await until(() => /accepted wk_\S+ ".*": (done|landing)/.test(stdout), 30_000, `no work was accepted as done${context()}`);
      assert.match(stdout, /In another terminal, watch and steer it:\n\s+fleet status --watch --home /);
      repo = /repository {2}(\S+)/.exec(stdout)?.[1];
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

      // The planted conflict and RED build take their rounds (sent back, reworked, verified, landed): the demo runs until both are through, and a wave is.
      const landedAfterSentBack = (cause: string) => [...stdout.matchAll(/train: sent (wk_\S+) back \((\w+)\)/g)].some((m) => m[2] === cause && stdout.includes(`train: landed ${m[1]} as`));
      const epicDone = async () => (await eventsOf(home)).some((e) => e.type === 'work.transitioned' && e.status === 'done' && e.reason === 'all children done');
      await until(async () => landedAfterSentBack('conflict') && landedAfterSentBack('red') && (await epicDone()), 180_000, 'the planted conflict and RED build were not reworked and landed, or no wave was completed');
      child.kill('SIGINT');
      const code = await exited;
      assert.equal(code, 0, `the demo exited with ${code}${context()}`);
      assert.equal(stderr, '', 'no errors');
      assert.match(stdout, /Demo ended \(interrupted\)/);
      assert.match(stdout, /noticed the fleet switch: pause \(test pause\)/);
      assert.match(stdout, /noticed the fleet switch: drain \(test drain\)/);

      const done = (await eventsOf(home)).filter((e) => e.type === 'work.transitioned' && e.status === 'done');
      assert.ok(done.length >= 3, `only ${done.length} items reached done${context()}`);
      const digest = await operator.call('fleet_digest', {});
      assert.ok(digest.digest.workCompleted.length >= 3, 'the digest shows the completed work');
      const events = await eventsOf(home);
      assert.ok(events.some((e) => e.type === 'handoff.resolved' && e.status === 'accepted'), 'a handoff was made and accepted');
      assert.ok(events.some((e) => e.type === 'work.transitioned' && e.status === 'verified'), 'a verifier passed work');

      // The builders worked on branches of their own, in worktrees of their own; the train landed their work.
      const builderWorktrees = events.filter((e) => e.type === 'integration.write_set' && BUILDERS.includes(e.callsign)).map((e) => (e as { worktree: string }).worktree);
      assert.ok(builderWorktrees.length > 0 && builderWorktrees.every((w) => w.startsWith(`${repo}/.worktrees/`)), `the builders' write-sets are of their worktrees: ${[...new Set(builderWorktrees)].join(', ')}`);
      const landed = events.filter((e) => e.type === 'work.transitioned' && e.status === 'landed');
      assert.ok(landed.length >= 1, `nothing landed${context()}`);
      for (const event of landed) {
        const commit = (event as { landedCommit?: string }).landedCommit;
        assert.ok(commit !== undefined && onMain(repo!, commit), `${(event as { itemId: string }).itemId} landed as ${commit}, which is on the sample repository's main`);
      }
      // Whether the planted pair is forecast before the train meets it depends on timing: a builder leaves its branch
      // at complete (only work in progress is forecast), and the fast one completes within seconds. The forecast is
      // tested where it is deterministic (integration/conflict-forecast, nats/forecast-integrator); here the train's part.
      // The planted conflict: the train sends one of the pair back; its builder merges the new main and it lands.
      const landedIds = new Set(landed.map((e) => (e as { itemId: string }).itemId));
      const sentBack = (cause: string) => events.filter((e) => e.type === 'integration.left' && e.status === 'returned' && e.cause === cause).map((e) => (e as { itemId: string }).itemId);
      assert.ok(sentBack('conflict').some((id) => landedIds.has(id)), `an item the train sent back for a conflict was reworked and landed${context()}`);
      // The planted RED build: the batch is RED, the culprit goes back, is fixed, and lands.
      assert.ok(events.some((e) => e.type === 'integration.batch_ended' && e.red === true), `a RED build${context()}`);
      assert.ok(sentBack('red').some((id) => landedIds.has(id)), `the RED build's culprit was fixed and landed${context()}`);
      const train = /train: (\d+) landed on main, (\d+) conflicts forecast, (\d+) sent back for a conflict, (\d+) RED builds \(the culprit sent back\)/.exec(stdout);
      // Its tasks accepted (landing or landed through the train), a wave's epic is done.
      assert.ok(events.some((e) => e.type === 'work.transitioned' && e.status === 'done' && e.reason === 'all children done'), `a wave's epic was completed${context()}`);
      assert.ok(train !== null && Number(train[1]) >= 1 && Number(train[3]) >= 1 && Number(train[4]) >= 1, `the summary reports the train${context()}`);

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
