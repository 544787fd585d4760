// A stall of the plane (DESIGN §12): GC, disk or anything else can keep the plane from running
// for longer than the agent TTL. A heartbeat that arrived during the stall waits in the socket;
// on thaw, the plane must not expire its agent before reading it. The stall here is real: the
// plane process is stopped with SIGSTOP for 2.5 × TTL while the agent's heartbeat is sent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeRepo } from '../support/git-repo.js';
import { EventWatcher } from '../support/event-watcher.js';
import { removeHome, startPlaneProcess } from '../support/plane-process.js';
import { testSeed } from '../support/seeded-random.js';

const seed = testSeed();
console.log(`plane-stall: seed ${seed} (rerun: FLEET_TEST_SEED=${seed})`);
const TTL_MS = 1_000;

test('an agent whose heartbeat arrived while the plane was stopped for 2.5 × TTL is not expired on thaw', async (t) => {
  const repo = makeRepo();
  const plane = await startPlaneProcess({ env: { FLEET_AGENT_TTL: String(TTL_MS / 1000) } });
  t.after(async () => {
    process.kill(plane.child.pid!, 'SIGCONT');
    await plane.stop();
    removeHome(plane.home);
    removeHome(repo);
  });
  const agent = await plane.connect();
  const watcher = await EventWatcher.follow(await plane.connect());
  t.after(() => (agent.close(), watcher.client.close()));
  const joined = await agent.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'test' });
  const claim = await agent.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
  const from = watcher.events.length;

  process.kill(plane.child.pid!, 'SIGSTOP');
  // Sent while the plane stands still: the kernel keeps it in the socket until the plane reads.
  const beat = agent.call('fleet_agent_heartbeat', { status: 'active', note: 'mid-stall' });
  // The stall's length is the experiment itself, not a wait for readiness.
  await new Promise((resolve) => setTimeout(resolve, 2.5 * TTL_MS));
  process.kill(plane.child.pid!, 'SIGCONT');

  const reply = await beat;
  assert.equal(reply.agent.status, 'active', `seed ${seed}`);
  const stalled = await watcher.waitFor((e) => e.type === 'plane.stalled', from, 5_000, 'the stall recorded');
  assert.ok(stalled.type === 'plane.stalled' && stalled.at - stalled.from >= 2 * TTL_MS, 'the recorded stall covers the stop');
  const status = await watcher.client.call('fleet_status', {});
  assert.deepEqual(status.claims.map((c) => c.id), [claim.claims[0]!.id], 'nothing acknowledged was lost');
  assert.ok(!watcher.events.some((e) => e.type === 'agent.expired' && e.agentId === joined.agentId), 'the agent was expired by the stall');
  assert.ok(!watcher.events.some((e) => e.type === 'claim.released'), 'a claim was released by the stall');
});
