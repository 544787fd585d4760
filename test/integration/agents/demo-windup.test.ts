// `fleet demo` when its start or its plane fails: a plane stopped under it, an agent that cannot
// start. Each says whose and why on stderr (a bare exit code told nothing in CI). The wind-up with
// work still on the train is covered by demo.test.ts ("runs with no errors until Ctrl-C…"): a test
// driving a slow train into that state depended on timing and was left out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PlaneClient } from '../../../server/client/plane-client.js';
import { removeHome, startPlaneProcess, tempHome } from '../../support/plane-process.js';
import { connectTo, startDemo, until } from './support.js';

test('fleet demo whose plane stops under it says so on stderr and exits 1', { timeout: 120_000 }, async (t) => {
  const home = tempHome();
  const plane = await startPlaneProcess({ home });
  t.after(async () => {
    await plane.stop();
    removeHome(home);
  });
  const demo = startDemo(t, home, ['--pace', '4', '--seed', '5']);
  const context = () => demo.context();
  await until(() => /ECHO +joined as rte/.test(demo.stdout()), 30_000, `the demo's agents never joined${context()}`);

  await plane.stop();
  const code = await Promise.race([demo.exited, new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 30_000))]);
  assert.equal(code, 1, `the demo exited with ${code}${context()}`);
  assert.match(demo.stdout(), /Demo ended \(plane gone\)/);
  // Whose connection ended and why, where a caller that keeps only stderr (or only the exit code) looks.
  assert.match(demo.stderr(), /^fleet demo: (ATLAS|BOLT|COMET|DELTA|ECHO)'s connection ended: the plane closed the connection \(code 1001: plane shutting down\); the demo ends \(the plane's log: /m, context());
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
  const demo = startDemo(t, home, ['--pace', '4', '--seed', '5']);
  const status = await demo.exited;
  assert.equal(status, 3, `the demo exited with ${status} (3: the plane refused)\n${demo.stdout()}\n${demo.stderr()}`);
  assert.match(demo.stderr(), /^fleet demo: ATLAS could not start:\nfleet demo: ATLAS-9 is live on the roster/m, demo.stderr());
  const roster = await holders[0]!.call('fleet_roster', {});
  assert.deepEqual(roster.agents.map((agent) => agent.callsign).filter((callsign) => !/^ATLAS(-\d)?$/.test(callsign)), [], 'no demo agent is left on the roster');
});
