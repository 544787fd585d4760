// Drain shows when it is complete: the status bar says "draining" while an agent holds work in
// progress, then "drained", with one notification, once that work is handed in.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FleetNotice } from '../../../extension/src/notifications.js';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';
import type { TestAgent } from './test-agent.js';

export function drainTests(fx: () => Fixture, agent: () => TestAgent): void {
  test('Drain: "draining" while ATLAS holds work in progress, "drained" and one notification once it is handed in', async () => {
    const { api, workspace } = fx();
    await agent().addWork('Write the changelog', workspace, ['docs/**']);
    const pulled = await agent().pull();
    assert.ok(pulled.item, 'ATLAS has work in progress');
    const notices: FleetNotice[] = [];
    const listening = api.onDidNotify((notice) => notices.push(notice));
    try {
      await vscode.commands.executeCommand('fleet.drain', { reason: 'end of shift' });
      await fx().state((s) => s.control?.state === 'drain' && s.work.some((item) => item.id === pulled.item!.id && item.status === 'in_progress'), 'the drain with work in progress');
      assert.match(api.statusBar().text, /Fleet: draining/);
      assert.match(api.statusBar().tooltip, /1 work item\(s\) still in progress/);

      await agent().complete(pulled.item.id);
      await fx().state((s) => !s.work.some((item) => item.status === 'in_progress') && s, 'the work handed in');
      assert.match(api.statusBar().text, /Fleet: drained/);
      assert.match(api.statusBar().tooltip, /Drain complete/);
      assert.deepEqual(notices.filter((notice) => notice.kind === 'drainComplete').length, 1, 'one notification');
    } finally {
      listening.dispose();
      await vscode.commands.executeCommand('fleet.resume');
      await fx().state((s) => s.control?.state === 'run', 'the fleet running again');
    }
  });
}
