// The operator's controls: the fleet switch from the command palette, joining, claiming, releasing.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ControlState } from '../../../contracts/index.js';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';
import type { TestAgent } from './test-agent.js';

export function controlTests(fx: () => Fixture, agent: () => TestAgent): void {
  test('Pause from the command palette: the agent\'s next call and the status bar see it; Resume undoes it', async () => {
    const { api, workspace } = fx();
    const palette = await vscode.commands.getCommands(true);
    for (const command of ['fleet.pause', 'fleet.drain', 'fleet.resume', 'fleet.stop', 'fleet.showDigest', 'fleet.claimFile', 'fleet.releaseClaim', 'fleet.joinAsOperator']) {
      assert.ok(palette.includes(command), `${command} is registered`);
    }
    const moveTo = async (command: string, state: ControlState, arg?: { reason?: string; confirmed?: boolean }) => {
      await vscode.commands.executeCommand(command, arg);
      const control = (await agent().heartbeat()).control;
      assert.equal(control.state, state, `after ${command} the agent's next call says ${state}`);
      if (arg?.reason) assert.equal(control.reason, arg.reason, `the agent reads the operator's reason for ${state}`);
      await fx().state((s) => s.control?.state === state, `the view state to show ${state}`);
    };
    await moveTo('fleet.pause', 'pause', { reason: 'reviewing the night merges' });
    assert.match(api.statusBar().text, /Fleet: paused/);
    assert.equal(api.statusBar().warning, true, 'the status bar turns to the warning colour');
    const refused = await agent().claim(['src/new.ts'], workspace);
    assert.equal(refused.granted, false);
    assert.equal(refused.refusedBy, 'control');
    await moveTo('fleet.drain', 'drain', { reason: 'end of shift' });
    assert.match(api.statusBar().text, /Fleet: drained/, 'nobody holds work in progress: the drain is complete at once');
    await moveTo('fleet.stop', 'stop', { reason: 'release freeze', confirmed: true });
    assert.match(api.statusBar().text, /Fleet: stopped/);
    await moveTo('fleet.resume', 'run');
    assert.match(api.statusBar().text, /Fleet: running/);
    assert.equal(api.statusBar().warning, false);
  });

  test('Join as Operator, claim a file: a "mine" badge; Release frees it; another agent\'s claim is force-released', async () => {
    const { workspace } = fx();
    await vscode.commands.executeCommand('fleet.joinAsOperator', { callsign: 'OPERATOR' });
    const joined = await fx().state((s) => s.operator?.callsign === 'OPERATOR' && s, 'the operator on the roster');
    assert.equal(joined.agents.find((a) => a.callsign === 'OPERATOR')?.role, 'operator');

    await vscode.commands.executeCommand('fleet.claimFile', { uri: fx().uri('README.md').toString() });
    const mine = await fx().decoration('README.md', (d) => d?.badge === 'OP', 'the operator badge on README.md');
    assert.equal((mine?.color as vscode.ThemeColor | undefined)?.id, 'fleet.ownedByMe');
    const claim = await fx().state((s) => s.claims.find((c) => c.holder === 'OPERATOR'), "the operator's claim in the view state");
    assert.equal(claim.pattern, 'README.md');
    await vscode.commands.executeCommand('fleet.releaseClaim', { claimId: claim.id });
    await fx().decoration('README.md', (d) => d === undefined, 'the badge to go after Release');

    const theirs = await agent().claim(['src/c.ts'], workspace, { reason: 'will be force-released' });
    assert.ok(theirs.granted);
    await fx().state((s) => s.claims.some((c) => c.id === theirs.claims[0]!.id), "ATLAS's src/c.ts claim in the Territory view");
    await vscode.commands.executeCommand('fleet.releaseClaim', { claimId: theirs.claims[0]!.id, confirmed: true });
    await fx().state((s) => !s.claims.some((c) => c.id === theirs.claims[0]!.id), 'the force-released claim to end');
    const check = await agent().check(['src/c.ts'], workspace);
    assert.deepEqual(check.results[0]!.holders, [], 'the plane agrees: nobody holds src/c.ts');
  });
}
