// The Digest view as a morning report: the published digests to open one by one, and "since you
// were last here" when the person comes back to the view.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { connectToPlane } from '../../../server/client/connect.js';
import type { DigestModel } from '../../../extension/src/views/digest-view.js';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';
import type { TestAgent } from './test-agent.js';
import { until, when } from './waits.js';

export function digestTests(fx: () => Fixture, agent: () => TestAgent): void {
  test('the Digest view: "since you were last here" after time away, and the published digests with their history', async () => {
    const { api, home, workspace } = fx();
    const shown = (check: (model: DigestModel) => boolean, what: string) =>
      when(api.onDidChangeDigest, () => {
        const model = api.digest();
        return model?.digest && check(model) ? model : undefined;
      }, what);
    const before = shown((model) => model.shown.kind === 'live', 'the live digest');
    await vscode.commands.executeCommand('fleet.showDigest', { view: 'live' });
    const looked = await before;

    await vscode.commands.executeCommand('workbench.view.explorer'); // the person leaves the view
    // VS Code tells the extension host a moment later; a claim before that is one the person saw.
    await until(() => !api.digestVisible(), 'the Digest view hidden');
    assert.ok((await agent().claim(['docs/**'], workspace, { reason: 'night docs' })).granted);
    const operator = await connectToPlane({ home, client: 'vscode-test-operator', autoStart: false, credential: 'operator' });
    const published = await operator.call('fleet_digest', { publish: true });
    operator.close();
    try {
      const back = shown((model) => model.shown.kind === 'catchUp' && model.history.some((entry) => entry.toSeq === published.digest.toSeq), 'the catch-up with the new published digest');
      await vscode.commands.executeCommand('fleet.showDigest');
      const catchUp = await back;
      assert.ok(catchUp.catchUpFrom !== null, 'the view remembers what it showed');
      assert.equal(catchUp.digest!.fromSeq, catchUp.catchUpFrom);
      assert.ok(catchUp.digest!.claims.acquired.some((claim) => claim.holder === 'ATLAS' && claim.pattern === 'docs/**'), 'what happened while away is there');
      assert.ok(catchUp.digest!.fromSeq > looked.digest!.fromSeq, 'events the view showed before are not repeated');
      assert.equal(catchUp.history[0]!.toSeq, published.digest.toSeq, 'the newest published digest first');

      const opened = shown((model) => model.shown.kind === 'published' && model.digest!.toSeq === published.digest.toSeq, 'the published digest');
      await vscode.commands.executeCommand('fleet.showDigest', { toSeq: published.digest.toSeq });
      assert.deepEqual((await opened).digest, published.digest, 'exactly the digest the plane published');
    } finally {
      await agent().release(['docs/**'], workspace);
    }
  });
}
