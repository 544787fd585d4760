// A write in another agent's exclusive territory, as the Explorer shows it: a mark of its own on the
// file, naming writer and holder, until the operator acknowledges the violation.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { connectToPlane } from '../../../server/client/connect.js';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';
import type { TestAgent } from './test-agent.js';

const B = 'src/b.ts';

export function violationTests(fx: () => Fixture, agent: () => TestAgent): void {
  test("a write in ATLAS's territory marks src/b.ts, naming writer and holder, until the operator acknowledges it", async () => {
    const { home, workspace } = fx();
    const original = readFileSync(join(workspace, B), 'utf8');
    const writer = await connectToPlane({ home, client: 'vscode-test-writer', autoStart: false });
    const operator = await connectToPlane({ home, client: 'vscode-test-acknowledger', autoStart: false, credential: 'operator' });
    try {
      assert.ok((await agent().claim([B], workspace, { reason: 'guarded file' })).granted);
      await fx().decoration(B, (d) => d?.badge === 'AT', "ATLAS's badge on src/b.ts");
      await writer.call('fleet_agent_join', { callsign: 'WRITER', runtime: 'script', worktree: workspace });
      await operator.call('fleet_worktree_changes', { worktree: workspace }); // resolves once the worktree is watched

      writeFileSync(join(workspace, B), 'export const b = "WRITER was here";\n');
      const marked = await fx().decoration(B, (d) => d?.badge === '⚠', 'the violation mark on src/b.ts');
      assert.equal((marked?.color as vscode.ThemeColor | undefined)?.id, 'fleet.violated', 'a colour of its own, not an ownership colour');
      assert.match(marked?.tooltip ?? '', /WRITER wrote this file, which ATLAS holds exclusively/);
      assert.equal(marked?.propagate, true, 'its folders take the colour: a collapsed src/ shows it');

      const { violations } = await operator.call('fleet_violations', {});
      assert.ok(violations.some((violation) => violation.path === B && violation.writer === 'WRITER'));
      await operator.call('fleet_violation_ack', { all: true });
      const back = await fx().decoration(B, (d) => d?.badge === 'AT', "the violation mark to give way to ATLAS's badge once acknowledged");
      assert.equal((back?.color as vscode.ThemeColor | undefined)?.id, 'fleet.ownedByOther');
    } finally {
      await writer.call('fleet_agent_leave', {}).catch(() => undefined);
      for (const client of [writer, operator]) client.close();
      await agent().release([B], workspace);
      writeFileSync(join(workspace, B), original);
    }
  });
}
