// The edit guard without side effects: block mode through VS Code's session read-only state (no
// settings file written, a message naming Fleet and the holder), and warn mode's Revert when
// autosave has already written the edit.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TerritoryWarning } from '../../../extension/src/edit-guard.js';
import type { Fixture } from './fixture.js';
import { test } from './runner.js';
import type { TestAgent } from './test-agent.js';
import { when } from './waits.js';

const A = 'src/a.ts';
const C = 'src/c.ts';

export function guardTests(fx: () => Fixture, agent: () => TestAgent): void {
  test('block mode: src/a.ts is read-only while ATLAS holds src/**, with a message naming Fleet and ATLAS, and no settings file is written', async () => {
    const { api, uri, workspace } = fx();
    await setGlobal('fleet', 'guard', 'block');
    const settingsChanges: string[] = [];
    const watching = vscode.workspace.onDidChangeConfiguration((event) => {
      for (const section of ['files', 'fleet', 'editor', 'workbench']) if (event.affectsConfiguration(section)) settingsChanges.push(section);
    });
    const readonlyMessages: string[] = [];
    const listening = api.onDidChangeReadonly((change) => change.message !== undefined && readonlyMessages.push(change.message));
    try {
      const held = await fx().decoration(A, (d) => d?.badge === 'AT', 'ATLAS still holds src/a.ts');
      assert.ok(held);
      const madeReadonly = when(api.onDidChangeReadonly, () => api.readonlyFiles().includes(uri(A).toString()), 'src/a.ts made read-only');
      const editor = await vscode.window.showTextDocument(uri(A));
      await madeReadonly;
      const before = editor.document.getText();
      // TextEditor.edit resolves true even when the editor drops the edit; the text tells.
      await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'x'));
      assert.equal(editor.document.getText(), before, 'the read-only editor refused the edit');
      assert.equal(readonlyMessages.length, 1);
      assert.match(readonlyMessages[0]!, /^Fleet /);
      assert.match(readonlyMessages[0]!, /ATLAS holds it exclusively/);
      assert.match(readonlyMessages[0]!, /src\/a\.ts/);

      const writable = when(api.onDidChangeReadonly, () => !api.readonlyFiles().includes(uri(A).toString()), 'src/a.ts writable again');
      await agent().release(['src/**'], workspace);
      await writable;
      await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'x'));
      assert.equal(editor.document.getText(), `x${before}`, 'writable again');

      assert.deepEqual(settingsChanges, [], 'no settings changed while the guard blocked and lifted');
      const readonlyInclude = vscode.workspace.getConfiguration('files').inspect('readonlyInclude');
      assert.equal(readonlyInclude?.globalValue, undefined, 'nothing in the user settings');
      assert.equal(readonlyInclude?.workspaceValue, undefined, 'nothing in the workspace settings');
      assert.equal(existsSync(join(workspace, '.vscode', 'settings.json')), false, 'no settings file in the worktree');
    } finally {
      watching.dispose();
      listening.dispose();
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await setGlobal('fleet', 'guard', undefined);
    }
  });

  test('warn mode with autosave on: Revert restores the content from before the first edit, on disk too', async () => {
    const { api, uri, workspace } = fx();
    const claimed = await agent().claim(['src/**'], workspace, { reason: 'refactor parser' });
    assert.ok(claimed.granted);
    await fx().decoration(C, (d) => d?.badge === 'AT', 'the ATLAS badge on src/c.ts');
    await setGlobal('files', 'autoSaveDelay', 50);
    await setGlobal('files', 'autoSave', 'afterDelay');
    const editor = await vscode.window.showTextDocument(uri(C));
    const original = readFileSync(uri(C).fsPath, 'utf8');
    try {
      const warned = new Promise<TerritoryWarning>((resolve) => {
        const listening = api.onDidWarn((warning) => {
          listening.dispose();
          resolve(warning);
        });
      });
      const saved = when(vscode.workspace.onDidSaveTextDocument, () => !editor.document.isDirty && readFileSync(uri(C).fsPath, 'utf8') !== original, 'autosave to write the edit');
      assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '// a person was here\n')));
      assert.match((await warned).message, /ATLAS/);
      await saved;
      assert.match(readFileSync(uri(C).fsPath, 'utf8'), /a person was here/, 'autosave wrote the edit');

      await vscode.commands.executeCommand('fleet.revertTerritoryEdit', uri(C));
      assert.equal(editor.document.getText(), original, 'the editor shows the content from before the edit');
      assert.equal(readFileSync(uri(C).fsPath, 'utf8'), original, 'the file on disk too');
      assert.equal(editor.document.isDirty, false);
    } finally {
      await setGlobal('files', 'autoSave', undefined);
      await setGlobal('files', 'autoSaveDelay', undefined);
      await agent().release(['src/**'], workspace);
    }
  });
}

async function setGlobal(section: string, key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
}
