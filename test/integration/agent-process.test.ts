// Liveness beats TTL (DESIGN §5 invariant 4, §11), against a real plane and real processes: an
// agent whose runtime process is registered stays live through silence and ends with its process.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { test } from 'node:test';
import type { PlaneClient } from '../../server/client/plane-client.js';
import { makeRepo } from '../support/git-repo.js';
import { EventWatcher } from '../support/event-watcher.js';
import { removeHome, startPlaneProcess } from '../support/plane-process.js';

/** A stand-in agent runtime: a process that lives until it is killed. */
function startRuntime(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore' });
}

const TTL_S = 1;

test('a registered runtime silent for 3 × TTL stays live (stalled, claims kept); killed, its claims go within 5 s with reason process_exited', async (t) => {
  const repo = makeRepo();
  const runtime = startRuntime();
  t.after(() => runtime.kill('SIGKILL'));
  const plane = await startPlaneProcess({ env: { FLEET_AGENT_TTL: String(TTL_S) } });
  t.after(async () => (await plane.stop(), removeHome(plane.home), removeHome(repo)));
  const agent = await plane.connect();
  const silent = await plane.connect(); // an agent without a process: the TTL alone decides
  const watcher = await EventWatcher.follow(await plane.connect());
  t.after(() => (agent.close(), silent.close(), watcher.client.close()));

  const joined = await agent.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'test', pid: runtime.pid! });
  const claim = await agent.call('fleet_claim_path', { patterns: ['src/**'], root: repo });
  assert.equal(claim.granted, true);
  const other = await silent.call('fleet_agent_join', { callsign: 'BOREAS', runtime: 'test' });
  await silent.call('fleet_claim_path', { patterns: ['docs/**'], root: repo });
  const from = watcher.events.length;

  // Both go silent. BOREAS expires after 2 × TTL; ATLAS is stalled after 3 × TTL and keeps its claim.
  await watcher.waitFor((e) => e.type === 'agent.expired' && e.agentId === other.agentId, from, 20_000, 'expiry of the silent agent without a process');
  await watcher.waitFor((e) => e.type === 'agent.stalled' && e.agentId === joined.agentId, from, 20_000, 'ATLAS shown stalled');
  const roster = await watcher.client.call('fleet_roster', {});
  assert.equal(roster.agents.find((a) => a.callsign === 'ATLAS')?.status, 'stalled');
  const status = await watcher.client.call('fleet_status', {});
  assert.deepEqual(
    status.claims.map((c) => c.holder),
    ['ATLAS'],
  );
  assert.ok(!watcher.events.some((e) => e.type === 'agent.expired' && e.agentId === joined.agentId), 'a live process is never expired by silence');

  const killedAt = Date.now();
  const ended = watcher.events.length;
  runtime.kill('SIGKILL');
  const released = await watcher.waitFor((e) => e.type === 'claim.released' && e.claimId === claim.claims[0]!.id, ended, 5_000, 'the claim released within 5 s of the process ending');
  const tookMs = Date.now() - killedAt;
  assert.equal(released.type === 'claim.released' && released.reason, 'process_exited');
  const exited = await watcher.waitFor((e) => e.type === 'agent.process_exited', ended, 1_000, 'agent.process_exited');
  assert.equal(exited.type === 'agent.process_exited' && exited.pid, runtime.pid);
  t.diagnostic(`claims released ${tookMs} ms after the kill`);
});

test('an agent whose process ended re-joins with its token and its new runtime pid, and is live again', async (t) => {
  const runtime = startRuntime();
  t.after(() => runtime.kill('SIGKILL'));
  const plane = await startPlaneProcess({ env: { FLEET_AGENT_TTL: '60' } });
  t.after(async () => (await plane.stop(), removeHome(plane.home)));
  const watcher = await EventWatcher.follow(await plane.connect());
  const first: PlaneClient = await plane.connect();
  t.after(() => (first.close(), watcher.client.close()));
  const joined = await first.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'test', pid: runtime.pid! });
  runtime.kill('SIGKILL');
  await watcher.waitFor((e) => e.type === 'agent.process_exited' && e.agentId === joined.agentId, 0, 5_000, 'agent.process_exited');
  const next = startRuntime();
  t.after(() => next.kill('SIGKILL'));
  const again = await first.call('fleet_agent_join', { callsign: 'ATLAS', runtime: 'test', sessionToken: joined.sessionToken, pid: next.pid! });
  assert.equal(again.agentId, joined.agentId);
  const roster = await watcher.client.call('fleet_roster', {});
  assert.equal(roster.agents.find((a) => a.callsign === 'ATLAS')?.status, 'active');
});
