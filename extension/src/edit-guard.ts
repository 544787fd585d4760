import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { Ownership } from '../../contracts/lsp.js';
import type { FleetConfig } from './config.js';
import type { EditorEdits } from './editor-edits.js';
import type { OwnershipCache } from './ownership-cache.js';

export interface TerritoryWarning {
  uri: vscode.Uri;
  message: string;
}

/** What a Revert did: `reverted` false when it could not, `message` says what happened or why not. */
export interface TerritoryRevert {
  uri: vscode.Uri;
  reverted: boolean;
  message: string;
}

const REVERT = 'Revert File';
const SHOW = 'Show Territory';
const BLOCK = 'Make Read-Only While Held';

/** Undoes the editor's own edits to a file in another agent's territory (the `Revert File` choice). */
export const REVERT_COMMAND = 'fleet.revertTerritoryEdit';

/**
 * The edit guard in `warn` mode: the first edit made in the editor (typed, or applied by an
 * in-editor agent) to a file in another agent's territory brings a warning that names the holder
 * and offers to undo, look, or switch to block mode. A reload after a write on disk (the holder's
 * own work: an agent's write, a commit, a checkout) is never warned about. From that first edit on,
 * the editor's own edits to the file are followed until Revert or until the file closes, whatever
 * the ownership does meanwhile; a new holder is warned about once more. Revert undoes exactly those
 * edits and keeps what the holder wrote on disk since. (Block mode is the ReadonlyGuard.)
 */
export class EditGuard implements vscode.Disposable {
  private readonly warnings = new vscode.EventEmitter<TerritoryWarning>();
  /** Each warning shown, for the extension's API (tests, other extensions). */
  readonly onDidWarn = this.warnings.event;
  private readonly reverts = new vscode.EventEmitter<TerritoryRevert>();
  /** Each Revert's outcome, as the person is told it. */
  readonly onDidRevert = this.reverts.event;
  /** Files whose own edits are followed since a warning, with the holders warned about. */
  private readonly warned = new Map<string, string>();
  /** Files a Revert is editing now: its own edits are not the person's. */
  private readonly reverting = new Set<string>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly config: FleetConfig,
    private readonly ownership: OwnershipCache,
    private readonly edits: EditorEdits,
  ) {
    this.subscriptions = [
      edits.onDidEditOwn((document) => void this.edited(document.uri)),
      vscode.workspace.onDidCloseTextDocument((document) => this.warned.delete(document.uri.toString())),
      vscode.commands.registerCommand(REVERT_COMMAND, (uri?: vscode.Uri) => this.revert(uri ?? vscode.window.activeTextEditor?.document.uri)),
    ];
  }

  private async edited(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    // Revert's own edit, or typed and deleted again: nothing of the person's is in the file.
    if (this.reverting.has(key) || this.edits.of(uri)?.empty) return;
    const known = this.ownership.peek(uri);
    const ownership = known !== undefined ? known : await this.ownership.lookup(uri);
    const others = ownership?.holders.filter((holder) => !holder.mine) ?? [];
    if (!ownership || others.length === 0 || this.config.guard !== 'warn') {
      // An edit the person may make: not followed, unless a warning already started following the file.
      if (!this.warned.has(key)) this.edits.forget(uri);
      return;
    }
    const names = holderNames(ownership);
    if (this.warned.get(key) === names) return;
    this.warned.set(key, names);
    const message = warningText(ownership);
    this.warnings.fire({ uri, message });
    const choice = await vscode.window.showWarningMessage(message, REVERT, SHOW, BLOCK);
    if (choice === REVERT) {
      await this.revert(uri);
    } else if (choice === SHOW) {
      await vscode.commands.executeCommand('fleet.revealClaim', { claimId: others[0]!.claimId });
    } else if (choice === BLOCK) {
      await this.config.setGuard('block');
    }
  }

  /** Undoes the editor's own edits since the warning, says what it did or why it could not, and tells the API. */
  private async revert(uri: vscode.Uri | undefined): Promise<void> {
    if (!uri) return void this.report(undefined, false, 'Fleet: no file to revert: open the file whose edits you want to undo.');
    const key = uri.toString();
    this.reverting.add(key);
    try {
      const { reverted, message } = await this.undoOwnEdits(uri);
      if (reverted) {
        this.warned.delete(key);
        this.edits.forget(uri);
      }
      this.report(uri, reverted, message);
    } finally {
      this.reverting.delete(key);
    }
  }

  private async undoOwnEdits(uri: vscode.Uri): Promise<{ reverted: boolean; message: string }> {
    const path = vscode.workspace.asRelativePath(uri);
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
    if (document) this.edits.settleNow(document);
    const spans = this.edits.of(uri);
    if (!document) return { reverted: false, message: `Fleet cannot revert ${path}: it is not open in this window, and Fleet follows edits only while a file is open.` };
    if (!spans) return { reverted: false, message: `Fleet cannot revert ${path}: it is too large for Fleet to follow its edits; use Undo.` };
    if (!this.edits.inStep(document)) return { reverted: false, message: `Fleet cannot revert ${path}: its record of your edits is out of step with the editor; use Undo or the Timeline view.` };
    const overwritten = spans.overwrittenByDisk;
    const lost = overwritten > 0 ? ` ${overwritten === 1 ? 'One of your edits was' : `${overwritten} of your edits were`} written over by a change on disk since (the holder's), and stays as the disk has it.` : '';
    if (spans.empty) {
      return { reverted: false, message: `Fleet has nothing of yours to revert in ${path}: no edit made in this editor since the warning is left.${lost}` };
    }
    const wasSaved = !document.isDirty;
    const edit = new vscode.WorkspaceEdit();
    for (const undo of spans.undos()) edit.replace(uri, new vscode.Range(document.positionAt(undo.start), document.positionAt(undo.start + undo.length)), undo.text);
    if (!(await vscode.workspace.applyEdit(edit))) return { reverted: false, message: `Fleet cannot revert ${path}: the editor refused the edit (is it read-only?).` };
    this.edits.settleNow(document, true);
    const kept = ' What the holder wrote on disk since is kept.';
    if (wasSaved) {
      // Your edits were on disk (saved or autosaved): write the file with them undone and the holder's changes in.
      if (!(await written(document))) {
        return { reverted: true, message: `Fleet undid your edits to ${path} in the editor but could not write the file (it changed on disk meanwhile); nothing on disk was overwritten. Save or compare it yourself.${lost}` };
      }
      return { reverted: true, message: `Fleet reverted your edits to ${path}, in the editor and on disk.${kept}${lost}` };
    }
    if ((await readDisk(uri)) === document.getText()) {
      // Only your unsaved edits differed from the disk: back to the file as it is, without writing it.
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      return { reverted: true, message: `Fleet reverted your unsaved edits to ${path}; the file on disk was not touched.${lost}` };
    }
    return {
      reverted: true,
      message: `Fleet undid your edits to ${path} in the editor. It still has other unsaved changes, or the file changed on disk meanwhile, so Fleet wrote nothing: compare it with the disk (File: Compare Active File with Saved) before you save.${lost}`,
    };
  }

  private report(uri: vscode.Uri | undefined, reverted: boolean, message: string): void {
    if (uri) this.reverts.fire({ uri, reverted, message });
    if (reverted) void vscode.window.showInformationMessage(message);
    else void vscode.window.showWarningMessage(message);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.warnings.dispose();
    this.reverts.dispose();
  }
}

function readDisk(uri: vscode.Uri): Promise<string | undefined> {
  return readFile(uri.fsPath, 'utf8').catch(() => undefined);
}

/**
 * Saves `document` and resolves whether the disk now holds its text. An autosave already under way
 * may be the save that writes it (VS Code runs ours after it), and the clean state can reach the
 * extension host a moment after save() resolved (seen on VS Code 1.100.3): both are waited for, bounded.
 */
async function written(document: vscode.TextDocument): Promise<boolean> {
  const nextSave = fired(vscode.workspace.onDidSaveTextDocument, () => readDisk(document.uri).then((text) => text === document.getText()));
  await document.save();
  await nextSave;
  await fired(vscode.workspace.onDidChangeTextDocument, () => !document.isDirty);
  return (await readDisk(document.uri)) === document.getText();
}

/** Resolves once `check` holds: now, or when `event` next fires with it holding; after `timeoutMs` in any case. */
function fired<T>(event: vscode.Event<T>, check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      listening.dispose();
      resolve();
    };
    const attempt = () => void Promise.resolve(check()).then((holds) => holds && finish());
    const timer = setTimeout(finish, timeoutMs);
    const listening = event(attempt);
    attempt();
  });
}

function holderNames(ownership: Ownership): string {
  return [...new Set(ownership.holders.filter((holder) => !holder.mine).map((holder) => holder.callsign))].join(' and ');
}

export function warningText(ownership: Ownership): string {
  const names = holderNames(ownership);
  const kind = ownership.blocked ? 'exclusive territory' : 'shared territory';
  return `You are editing ${ownership.path}, which is in ${names}'s ${kind}: ${ownership.summary.split('\n').join('; ')}. ${names} may be changing it right now.`;
}
