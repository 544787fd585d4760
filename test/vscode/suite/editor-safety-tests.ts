// The editor never costs an agent its work (issue 26, items 1, 2 and 6), in a window of its own:
// a holder's write to a file open here is reloaded without a warning and no Revert writes over it;
// Revert undoes exactly the person's edits, keeping what the holder wrote since, also after the
// file's ownership changed; with the plane down, nothing stale is shown and the person's own claim
// is never another's, and all comes back with the plane.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { connectToPlane } from '../../../server/client/connect.js';
import type { FleetApi } from '../../../extension/src/api.js';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';
import { TestAgent } from './test-agent.js';
import { when } from './waits.js';

/** Longer than the editor takes to tell a reload from a first edit (EditorEdits' SETTLE_MS): a warning would have come by then. */
const QUIET_MS = 1_500;

export function editorSafetyTests(fx: () => Fixture): void {
  let zed: TestAgent | undefined;
  const holder = () => zed ?? assert.fail('ZED did not join: an earlier test failed');

  test('ZED joins and holds src/a.ts, src/b.ts and src/c.ts', async () => {
    const { workspace } = fx();
    await fx().state((s) => s.connection.status === 'connected', 'the plane connected');
    zed = await TestAgent.join(fx().home, 'ZED');
    for (const path of ['src/a.ts', 'src/b.ts', 'src/c.ts']) assert.ok((await holder().claim([path], workspace, { reason: 'parser rewrite', ttlSeconds: 3600 })).granted);
    for (const path of ['src/a.ts', 'src/b.ts', 'src/c.ts']) await fx().decoration(path, (d) => d?.badge === 'ZE', `ZED's badge on ${path}`);
  });

  test("the holder's writes to a file open here (append, git checkout, commit) reload it without a warning, and Revert writes nothing over them", async () => {
    const { api, uri, workspace } = fx();
    const file = uri('src/a.ts');
    const warnings = collect(api.onDidWarn);
    try {
      const document = (await vscode.window.showTextDocument(file)).document;
      appendFileSync(file.fsPath, '// ZED: echo >> src/a.ts\n');
      await reloaded(document, /echo >>/);
      git(workspace, 'checkout', '--', 'src/a.ts');
      await reloaded(document, (text) => !text.includes('echo >>'));
      appendFileSync(file.fsPath, '// ZED: committed\n');
      git(workspace, 'commit', '-q', '-am', 'ZED commits src/a.ts');
      await reloaded(document, /committed/);
      await quiet();
      assert.deepEqual(warnings.seen.map((warning) => warning.message), [], 'no warning for what the holder wrote on disk');
      const onDisk = readFileSync(file.fsPath, 'utf8');

      await vscode.commands.executeCommand('fleet.revertTerritoryEdit', file);
      await diskIs(file, onDisk, "ZED's commit still on disk");
      assert.equal(document.getText(), onDisk);
      assert.equal(document.isDirty, false);
      await saysNothingLeft(api, file);
    } finally {
      warnings.dispose();
    }
  });

  test("the file changes hands after the person's edit: Revert still undoes it, and says why when there is nothing left", async () => {
    const { api, uri, workspace, home } = fx();
    const file = uri('src/c.ts');
    const original = readFileSync(file.fsPath, 'utf8');
    const warnings = collect(api.onDidWarn);
    const kai = await TestAgent.join(home, 'KAI');
    try {
      const editor = await vscode.window.showTextDocument(file);
      assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '// not mine to write\n')));
      await warnings.first();

      // ZED lets go and KAI takes it: two ownership changes after the edit.
      await holder().release(['src/c.ts'], workspace);
      await fx().decoration('src/c.ts', (d) => d === undefined, 'src/c.ts free');
      assert.ok((await kai.claim(['src/c.ts'], workspace, { reason: 'takes over the parser', ttlSeconds: 3600 })).granted);
      await fx().decoration('src/c.ts', (d) => d?.badge === 'KA', "KAI's badge on src/c.ts");

      await vscode.commands.executeCommand('fleet.revertTerritoryEdit', file);
      assert.equal(editor.document.getText(), original, 'the edit is gone');
      assert.equal(editor.document.isDirty, false, 'back to the file on disk');
      await diskIs(file, original, 'the file on disk as it was');

      await saysNothingLeft(api, file);
    } finally {
      warnings.dispose();
      await kai.leave();
    }
  });

  test("the person's edit is autosaved, then the holder appends: Revert undoes only the person's edit and keeps the holder's line, on disk too", async () => {
    const { api, uri } = fx();
    const file = uri('src/b.ts');
    const original = readFileSync(file.fsPath, 'utf8');
    const warnings = collect(api.onDidWarn);
    await setGlobal('files', 'autoSaveDelay', 50);
    await setGlobal('files', 'autoSave', 'afterDelay');
    try {
      const editor = await vscode.window.showTextDocument(file);
      const saved = when(vscode.workspace.onDidSaveTextDocument, () => readFileSync(file.fsPath, 'utf8').includes('a person was here'), 'autosave to write the edit');
      assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '// a person was here\n')));
      const [warning] = await warnings.first();
      assert.match(warning!.message, /ZED's exclusive territory/);
      await saved;

      appendFileSync(file.fsPath, '// ZED appended this\n');
      await reloaded(editor.document, /ZED appended this/);
      await quiet();
      assert.equal(warnings.seen.length, 1, "the holder's append brought no second warning");

      await vscode.commands.executeCommand('fleet.revertTerritoryEdit', file);
      const expected = `${original}// ZED appended this\n`;
      assert.equal(editor.document.getText(), expected, "the editor: the person's line gone, ZED's kept");
      await diskIs(file, expected, 'the disk too');
      assert.equal(editor.document.isDirty, false);
      await saysNothingLeft(api, file);
    } finally {
      warnings.dispose();
      await setGlobal('files', 'autoSave', undefined);
      await setGlobal('files', 'autoSaveDelay', undefined);
    }
  });

  test("with the plane down, badges, CodeLenses and diagnostics are cleared and the person's own claim is never another's; all comes back with the plane", async () => {
    const { api, uri, home } = fx();
    const mine = uri('README.md');
    const theirs = uri('src/a.ts');
    await vscode.commands.executeCommand('fleet.joinAsOperator', { callsign: 'PERSON' });
    await fx().state((s) => s.operator?.callsign === 'PERSON', 'joined as PERSON');
    await vscode.commands.executeCommand('fleet.claimFile', { uri: mine.toString(), reason: 'release notes' });
    await fx().decoration('README.md', (d) => /^Fleet: yours/.test(String(d?.tooltip)), 'README.md mine');
    await vscode.window.showTextDocument(mine, { preview: false });
    await vscode.window.showTextDocument(theirs, { preview: false });
    await fleetDiagnostics(theirs, (found) => found.length === 1, "the diagnostic naming ZED on src/a.ts");
    assert.match((await fleetLenses(theirs)).join('\n'), /ZED holds this file/);
    assert.match((await fleetLenses(mine)).join('\n'), /Yours \(PERSON\)/);

    // Every badge README.md gets from here on: never another agent's.
    const shownForMine: string[] = [];
    const watching = api.onDidChangeFileDecorations(async (uris) => {
      if (uris.some((changed) => changed.toString() === mine.toString())) shownForMine.push(String((await api.fileDecoration(mine))?.tooltip ?? 'none'));
    });
    try {
      const operator = await connectToPlane({ home, client: 'editor-safety-test', autoStart: false, credential: 'operator' });
      await operator.call('fleet_plane_shutdown', {});
      operator.close();
      await fx().state((s) => s.connection.status === 'stopped', 'the window to learn the plane was shut down');
      await fx().decoration('src/a.ts', (d) => d === undefined, "ZED's badge cleared");
      await fx().decoration('README.md', (d) => d === undefined, "the person's badge cleared");
      await fleetDiagnostics(theirs, (found) => found.length === 0, 'the diagnostic cleared');
      assert.deepEqual(await fleetLenses(theirs), [], 'no CodeLens on src/a.ts');
      assert.deepEqual(await fleetLenses(mine), [], 'no CodeLens on README.md');
      assert.equal(await api.ownership(mine), null, 'nobody holds README.md as far as this window can tell');

      await vscode.commands.executeCommand('fleet.startPlane');
      await fx().state((s) => s.connection.status === 'connected', 'connected to a new plane');
      await fx().decoration('README.md', (d) => /^Fleet: yours/.test(String(d?.tooltip)), 'README.md mine again');
      await fx().decoration('src/a.ts', (d) => d?.badge === 'ZE', "ZED's badge back");
      await fleetDiagnostics(theirs, (found) => found.length === 1, 'the diagnostic back');
      assert.match((await fleetLenses(mine)).join('\n'), /Yours \(PERSON\)/);
      assert.equal((await api.ownership(mine))?.kind, 'mine');
      assert.deepEqual(shownForMine.filter((tooltip) => tooltip !== 'none' && !/^Fleet: yours/.test(tooltip)), [], "README.md never showed as another's");
    } finally {
      watching.dispose();
    }
  });

  test('a relative fleet.home, or a file where its folder goes: the window says what is wrong and what to do, and comes back once cleared', async () => {
    const { home } = fx();
    const fleet = () => vscode.workspace.getConfiguration('fleet');
    const file = `${home}-not-a-folder`;
    writeFileSync(file, 'a file where a FLEET_HOME folder was meant to be\n');
    try {
      await fleet().update('home', 'fleet-home-relative', vscode.ConfigurationTarget.Global);
      const relative = await fx().state((s) => s.connection.status === 'failed' && s.connection.message, 'the relative fleet.home refused with a reason', 60_000);
      assert.match(relative, /"fleet-home-relative" is a relative path: set the fleet.home setting .* to an absolute folder/);
      await fleet().update('home', file, vscode.ConfigurationTarget.Global);
      const notFolder = await fx().state((s) => s.connection.status === 'failed' && s.connection.message?.includes(file) && s.connection.message, 'the file refused with a reason', 60_000);
      assert.match(notFolder, /is a file, not a folder: point the fleet.home setting/);
      assert.doesNotMatch(notFolder, /EEXIST|ENOTDIR/);
    } finally {
      await fleet().update('home', undefined, vscode.ConfigurationTarget.Global);
      rmSync(file, { force: true });
    }
    await fx().state((s) => s.connection.status === 'connected' && s.connection.home === home && s, 'connected again to the plane on FLEET_HOME', 60_000);
  });
}

/** Revert once more: nothing of the person's is left, Revert says so, and the file stays as it is. */
async function saysNothingLeft(api: FleetApi, file: vscode.Uri): Promise<void> {
  const document = vscode.workspace.textDocuments.find((open) => open.uri.toString() === file.toString())!;
  const before = document.getText();
  const reports = collect(api.onDidRevert);
  try {
    await vscode.commands.executeCommand('fleet.revertTerritoryEdit', file);
    const [report] = await reports.first();
    assert.equal(report!.reverted, false);
    assert.ok(report!.message.includes(`nothing of yours to revert in ${vscode.workspace.asRelativePath(file)}`), report!.message);
  } finally {
    reports.dispose();
  }
  assert.equal(document.getText(), before, 'the editor as it was');
  await diskIs(file, before, 'nothing was written');
}

/**
 * The file on disk holds `text`, now or after the next save: VS Code writes a file by truncating it
 * first, so a read during a save (a late autosave of the same text) sees a moment of nothing.
 */
async function diskIs(file: vscode.Uri, text: string, what: string): Promise<void> {
  try {
    await when(vscode.workspace.onDidSaveTextDocument, () => readFileSync(file.fsPath, 'utf8') === text, what, 5_000);
  } catch {
    assert.equal(readFileSync(file.fsPath, 'utf8'), text, what);
  }
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=ZED', '-c', 'user.email=zed@example.invalid', ...args], { cwd, stdio: 'ignore' });
}

async function setGlobal(section: string, key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
}

/** Resolves once VS Code reloaded `document` from disk with text matching `want`. */
function reloaded(document: vscode.TextDocument, want: RegExp | ((text: string) => boolean)): Promise<true> {
  const matches = (text: string) => (want instanceof RegExp ? want.test(text) : want(text));
  return when(vscode.workspace.onDidChangeTextDocument, () => matches(document.getText()) && !document.isDirty, `${vscode.workspace.asRelativePath(document.uri)} reloaded from disk`);
}

/** A warning is checked for by its absence: wait out the time one would take to come. */
function quiet(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, QUIET_MS));
}

/** Each value an event fires, and a wait for the first (or first n). */
function collect<T>(event: vscode.Event<T>): { seen: T[]; first(count?: number): Promise<T[]>; dispose(): void } {
  const seen: T[] = [];
  const fired = new vscode.EventEmitter<void>();
  const listening = event((value) => {
    seen.push(value);
    fired.fire();
  });
  return {
    seen,
    first: (count = 1) => when(fired.event, () => seen.length >= count && seen, `${count} event(s)`),
    dispose: () => {
      listening.dispose();
      fired.dispose();
    },
  };
}

function fleetDiagnostics(uri: vscode.Uri, check: (found: vscode.Diagnostic[]) => boolean, what: string): Promise<true> {
  return when(vscode.languages.onDidChangeDiagnostics, () => check(vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Fleet')), what);
}

async function fleetLenses(uri: vscode.Uri): Promise<string[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return lenses.filter((lens) => lens.command?.command === 'fleet.revealClaim').map((lens) => lens.command!.title);
}
