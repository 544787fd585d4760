// The plane as the extension hosts it: started or joined on activation, outliving the window,
// restarted after a crash, never duplicated.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAlive } from '../../../server/plane/processes/process-identity.js';
import { planeJson, planeLogStarts, type Fixture } from './fixture.js';
import { test } from './runner.js';
import { TestAgent } from './test-agent.js';

export function planeTests(fx: () => Fixture): void {
  test('activation starts or joins the plane of FLEET_HOME, once', async () => {
    const { api, home } = fx();
    const state = await fx().state((s) => s.connection.status === 'connected' && s, 'the language server to connect to a plane');
    const discovery = planeJson(home);
    assert.equal(state.connection.plane?.pid, discovery.pid, 'the extension is connected to the plane of plane.json');
    assert.ok(discovery.socket, 'the plane announces its Unix socket');
    assert.equal(state.connection.plane?.socket, discovery.socket, 'the view names the socket the plane listens on');
    assert.equal(state.connection.home, home);
    assert.ok(isAlive(discovery.pid));
    assert.notEqual(discovery.pid, process.pid, 'the plane is its own process, not the extension host');
    const expected = process.env.FLEET_TEST_EXPECT_PLANE_PID;
    if (expected) assert.equal(discovery.pid, Number(expected), 'a plane already ran: the extension joined it');
    assert.equal(planeLogStarts(home), 1, 'exactly one plane was started on this FLEET_HOME');
    assert.equal(state.control?.state, 'run');
    assert.match(api.statusBar().text, /Fleet: running · 0 agents/);
    assert.ok(api.statusBar().tooltip.includes(`on port ${discovery.port} and socket \`${discovery.socket}\``), api.statusBar().tooltip);
    assert.equal(api.statusBar().warning, false);
    assert.equal(state.store?.kind, 'embedded', 'the view names the store');
    assert.match(api.statusBar().tooltip, /Store: embedded/);
    assert.equal(api.statusBar().error, false);
  });

  test('the CLI launcher at FLEET_HOME/bin/fleet reaches the same plane', async () => {
    const { api, home } = fx();
    await fx().state(() => api.launcher(), 'the launcher to be written');
    const launcher = api.launcher()!;
    assert.ok(existsSync(launcher));
    const status = JSON.parse(execFileSync(launcher, ['status', '--json', '--home', home], { encoding: 'utf8' })) as { plane: { pid: number } };
    assert.equal(status.plane.pid, planeJson(home).pid);
  });
}

/** Runs last: the plane is killed and must come back, with its state. */
export function crashTests(fx: () => Fixture, agent: () => TestAgent): void {
  test('when the plane dies the UI says so, and a new plane comes back with the claims', async () => {
    const { api, home, workspace } = fx();
    const granted = await agent().claim(['docs/**'], workspace, { reason: 'write the guide' });
    assert.ok(granted.granted);
    await fx().state((s) => s.claims.some((claim) => claim.pattern === 'docs/**'), 'the docs/** claim in the view state');
    const before = planeJson(home).pid;
    process.kill(before, 'SIGKILL');
    await fx().state((s) => s.connection.status !== 'connected', 'the UI to learn the plane went away');
    assert.doesNotMatch(api.statusBar().text, /running/);
    const back = await fx().state((s) => s.connection.status === 'connected' && s.connection.plane?.pid !== before && s, 'a new plane');
    assert.equal(back.connection.plane?.pid, planeJson(home).pid);
    assert.ok(back.claims.some((claim) => claim.pattern === 'docs/**' && claim.holder === agent().callsign), 'the acknowledged claim survived the crash');
    assert.equal(planeLogStarts(home), 2, 'one restart, no duplicate plane');
    assert.equal((await api.fileDecoration(fx().uri('docs/guide.md')))?.badge, 'AT');
    // The agent continues as itself on the new plane, then leaves (its claims go with it); KEEPER
    // leaves a TTL claim behind for the next window to find.
    await agent().rejoin();
    await agent().leave();
    const keeper = await TestAgent.join(home, 'KEEPER');
    assert.ok((await keeper.claim(['docs/guide.md'], workspace, { ttlSeconds: 600, reason: 'survives the window' })).granted);
    keeper.close();
  });
}

/** The second window on the same FLEET_HOME (a reopened window): same plane, same state. */
export function reopenTests(fx: () => Fixture): void {
  test('a reopened window joins the same plane and sees the state it left', async () => {
    const { api, home } = fx();
    const state = await fx().state((s) => s.connection.status === 'connected' && s, 'the connection');
    assert.equal(state.connection.plane?.pid, Number(process.env.FLEET_TEST_EXPECT_PLANE_PID), 'no second plane');
    const starts = Number(process.env.FLEET_TEST_EXPECT_PLANE_STARTS);
    assert.equal(planeLogStarts(home), starts, 'no plane was started for this window');
    const keeper = state.claims.find((claim) => claim.holder === 'KEEPER');
    assert.ok(keeper, 'the claim made before the window closed is still there');
    assert.equal(keeper.pattern, 'docs/guide.md');
    const decoration = await fx().decoration('docs/guide.md', (d) => d?.badge === 'KE', 'the KEEPER badge');
    assert.match(decoration?.tooltip ?? '', /KEEPER/);
    assert.ok(state.agents.some((agent) => agent.callsign === 'KEEPER'));
    assert.match(api.statusBar().text, /Fleet: running · \d+ agents?/);
  });
}
