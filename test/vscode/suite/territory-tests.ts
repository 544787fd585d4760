// Ownership in the editor: badge, diagnostic, hover, CodeLens, and the edit guard's two modes.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { Fixture } from './fixture.js';
import { measure, test } from './runner.js';
import type { TestAgent } from './test-agent.js';
import { when } from './waits.js';

const A = 'src/a.ts';

export function territoryTests(fx: () => Fixture, agent: () => TestAgent): void {
  test('an agent claims src/**: badge, diagnostic, hover and CodeLens name it on src/a.ts', async () => {
    const { api, workspace, uri } = fx();
    const editor = await vscode.window.showTextDocument(uri(A));
    assert.equal(await api.fileDecoration(uri(A)), undefined, 'nobody holds src/a.ts yet');
    assert.equal(diagnosticsOf(uri(A)).length, 0);

    const badge = fx().decoration(A, (d) => d?.badge === 'AT', 'the ATLAS badge on src/a.ts');
    const result = await agent().claim(['src/**'], workspace, { reason: 'refactor parser' });
    const grantedAt = performance.now();
    assert.ok(result.granted, 'the claim is granted');
    const decoration = await badge;
    measure('firstBadgeMs', Math.round(performance.now() - grantedAt));
    assert.match(decoration?.tooltip ?? '', /ATLAS/);
    assert.match(decoration?.tooltip ?? '', /src\/\*\*/);
    assert.match(decoration?.tooltip ?? '', /exclusive/);
    assert.equal((decoration?.color as vscode.ThemeColor | undefined)?.id, 'fleet.ownedByOther');
    assert.equal(await api.fileDecoration(uri('README.md')), undefined, 'a file outside the claim has no badge');
    // Asked for with Ctrl+. (an invoked request), a free file offers Claim this file as a quick fix, not only under Source Action.
    await vscode.workspace.openTextDocument(uri('README.md'));
    const freeActions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri('README.md'), new vscode.Range(0, 0, 0, 1));
    assert.equal(freeActions.find((action) => action.title === 'Fleet: Claim this file')?.kind?.value, vscode.CodeActionKind.QuickFix.value);

    const diagnostic = await when(vscode.languages.onDidChangeDiagnostics, () => diagnosticsOf(uri(A))[0], 'the territory diagnostic on src/a.ts');
    assert.match(diagnostic.message, /ATLAS/);
    assert.match(diagnostic.message, /exclusive territory/);
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Warning);

    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri(A), new vscode.Position(0, 1));
    assert.ok(hovers.some((hover) => hover.contents.some((part) => markdownText(part).includes('ATLAS'))), 'a hover names ATLAS');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri(A));
    assert.ok(lenses.some((lens) => lens.command?.title.includes('ATLAS holds this file')), 'a CodeLens names ATLAS');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri(A), new vscode.Range(0, 0, 0, 1));
    assert.ok(actions.some((action) => action.title === "Fleet: Show ATLAS's territory"));
    const handoff = actions.find((action) => action.title === 'Fleet: Ask ATLAS to hand off src/a.ts');
    assert.ok(handoff?.command, 'a code action asks the holder for a handoff');
    await vscode.commands.executeCommand(handoff.command.command, ...(handoff.command.arguments ?? []));
    const inbox = await agent().inbox();
    const request = inbox.messages.find((message) => message.type === 'REQUEST' && message.subject === 'Handoff request: src/a.ts');
    assert.ok(request, "the request is in ATLAS's inbox");
    assert.ok(request.refs.includes(result.claims[0]!.id), 'it names the claim');

    const state = await fx().state((s) => s.claims.some((claim) => claim.pattern === 'src/**') && s, 'the claim in the Territory view');
    assert.ok(state.agents.some((a) => a.callsign === 'ATLAS' && a.claimCount === 1), 'the roster shows ATLAS with one claim');
    assert.match(api.statusBar().text, /1 agent\b/);
    assert.ok(editor);
  });

  test('badge latency: claim granted → decoration changed, 10 claim/release cycles', async () => {
    const { workspace } = fx();
    const samples: number[] = [];
    for (let cycle = 0; cycle < 10; cycle++) {
      const cleared = fx().decoration('src/b.ts', (d) => d?.badge === 'AT', 'src/b.ts still held');
      await cleared;
      const gone = fx().decoration('src/b.ts', (d) => d === undefined, 'the badge to go after the release');
      assert.deepEqual((await agent().release(['src/**'], workspace)).released.length, 1);
      await gone;
      const back = fx().decoration('src/b.ts', (d) => d?.badge === 'AT', 'the badge to come back');
      const result = await agent().claim(['src/**'], workspace, { reason: 'refactor parser' });
      const grantedAt = performance.now();
      assert.ok(result.granted);
      await back;
      samples.push(performance.now() - grantedAt);
    }
    samples.sort((a, b) => a - b);
    measure('badgeLatencyMs', { samples: samples.map((ms) => Math.round(ms * 10) / 10), p50: samples[4], max: samples[9] });
  });

  test('warn mode: the first edit to src/a.ts warns, naming ATLAS; the next edit does not', async () => {
    const { api, uri } = fx();
    const editor = await vscode.window.showTextDocument(uri(A));
    const warnings: string[] = [];
    const subscription = api.onDidWarn((warning) => warnings.push(warning.message));
    try {
      const warned = when(api.onDidWarn, () => warnings[0], 'the out-of-territory warning');
      assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(1, 0), '// a person was here\n')));
      const message = await warned;
      assert.match(message, /src\/a\.ts/);
      assert.match(message, /ATLAS/);
      assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(1, 0), '// and again\n')));
      assert.equal(warnings.length, 1, 'one warning per file');
    } finally {
      subscription.dispose();
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });
}

function diagnosticsOf(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === 'Fleet');
}

function markdownText(part: vscode.MarkdownString | vscode.MarkedString): string {
  return typeof part === 'string' ? part : part.value;
}
