// The orchestration layer as the sidebar shows it: the work queue and the heartbeat digest.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { connectToPlane } from '../../../server/client/connect.js';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';
import type { TestAgent } from './test-agent.js';
import { until, when } from './waits.js';

export function orchestrationTests(fx: () => Fixture, agent: () => TestAgent): void {
  test('the Work view lists the queue; the Digest view shows the digest; a published blocker notifies', async () => {
    const { api, home, workspace } = fx();
    const added = await agent().addWork('Refactor the parser', workspace, ['src/**']);
    const state = await fx().state((s) => s.work.find((item) => item.id === added.item.id), 'the work item in the Work view');
    assert.equal(state.title, 'Refactor the parser');
    assert.equal(state.status, 'ready');

    await agent().heartbeat('blocked', 'waiting for the schema');
    await vscode.commands.executeCommand('fleet.showDigest');
    await until(() => api.digest()?.digest?.agents.some((a) => a.callsign === 'ATLAS' && a.status === 'blocked') === true, 'the Digest view to show ATLAS blocked', 20_000);
    assert.ok(api.digest()!.digest!.blockers.some((blocker) => blocker.text.includes('ATLAS')), 'the digest lists the blocker');

    const notices: string[] = [];
    const subscription = api.onDidNotify((notice) => notice.kind === 'blockers' && notices.push(notice.message));
    try {
      const shown = when(api.onDidNotify, () => notices[0], 'the blocker notification');
      // Publishing the digest is the operator's: the test presents the operator credential, as the CLI does.
      const operator = await connectToPlane({ home, client: 'vscode-test-operator', autoStart: false, credential: 'operator' });
      await operator.call('fleet_digest', { publish: true });
      operator.close();
      assert.match(await shown, /ATLAS reports blocked: waiting for the schema/);
    } finally {
      subscription.dispose();
      await agent().heartbeat('active');
    }
  });
}
