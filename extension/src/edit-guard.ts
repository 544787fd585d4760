import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { Ownership } from '../../contracts/lsp.js';
import type { FleetConfig } from './config.js';
import type { OwnershipCache } from './ownership-cache.js';
import type { PreEditSnapshots } from './pre-edit-snapshots.js';

export interface TerritoryWarning {
  uri: vscode.Uri;
  message: string;
}

const REVERT = 'Revert File';
const SHOW = 'Show Territory';
const BLOCK = 'Make Read-Only While Held';

/** Restores the file to its content from before the first out-of-territory edit (the `Revert File` choice). */
export const REVERT_COMMAND = 'fleet.revertTerritoryEdit';

/**
 * The edit guard in `warn` mode: the first edit to a file in another agent's territory brings a
 * warning that names the owner and offers to undo, look, or switch to block mode. One warning per
 * file until its ownership changes or the edit is reverted. (Block mode is the ReadonlyGuard.)
 */
export class EditGuard implements vscode.Disposable {
  private readonly warnings = new vscode.EventEmitter<TerritoryWarning>();
  /** Each warning shown, for the extension's API (tests, other extensions). */
  readonly onDidWarn = this.warnings.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly config: FleetConfig,
    private readonly ownership: OwnershipCache,
    private readonly snapshots: PreEditSnapshots,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((event) => void this.edited(event)),
      vscode.commands.registerCommand(REVERT_COMMAND, (uri?: vscode.Uri) => this.revert(uri ?? vscode.window.activeTextEditor?.document.uri)),
    ];
  }

  private async edited(event: vscode.TextDocumentChangeEvent): Promise<void> {
    if (this.config.guard !== 'warn' || event.contentChanges.length === 0) return;
    const uri = event.document.uri;
    if (uri.scheme !== 'file' || this.snapshots.isFrozen(uri)) return;
    const ownership = this.ownership.peek(uri) ?? (await this.ownership.lookup(uri));
    const others = ownership?.holders.filter((holder) => !holder.mine) ?? [];
    if (!ownership || others.length === 0 || this.snapshots.isFrozen(uri)) return;
    this.snapshots.freeze(uri);
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

  /**
   * Back to the content from before the first out-of-territory edit. Without autosave the edit is
   * only in the editor, and VS Code's revert drops it without writing; with autosave it is already
   * on disk, and the old content is written back (a save cannot be vetoed, so this is the undo).
   */
  private async revert(uri: vscode.Uri | undefined): Promise<void> {
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri?.toString());
    const before = uri && this.snapshots.isFrozen(uri) ? this.snapshots.freeze(uri) : undefined;
    if (!document || before === undefined) return;
    if ((await readDisk(document)) === before) {
      if (document.isDirty) {
        await vscode.window.showTextDocument(document);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
    } else {
      await this.writeBack(document, before);
    }
    this.snapshots.thaw(document);
  }

  /** Autosave wrote the edit: the old content goes back into the editor and onto the disk. */
  private async writeBack(document: vscode.TextDocument, before: string): Promise<void> {
    if (document.getText() !== before) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), before);
      await vscode.workspace.applyEdit(edit);
    }
    const saved = nextSave(document);
    await document.save();
    // An autosave already under way may be the one that writes it: done when the disk says so.
    if ((await readDisk(document)) !== before) await saved;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.warnings.dispose();
  }
}

function readDisk(document: vscode.TextDocument): Promise<string | undefined> {
  return readFile(document.uri.fsPath, 'utf8').catch(() => undefined);
}

/** The next save of `document` (bounded: a save that never comes does not hold the command up). */
function nextSave(document: vscode.TextDocument, timeoutMs = 5_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(finish, timeoutMs);
    const listening = vscode.workspace.onDidSaveTextDocument((saved) => saved.uri.toString() === document.uri.toString() && finish());
    function finish(): void {
      clearTimeout(timer);
      listening.dispose();
      resolve();
    }
  });
}

export function warningText(ownership: Ownership): string {
  const others = ownership.holders.filter((holder) => !holder.mine);
  const names = [...new Set(others.map((holder) => holder.callsign))].join(' and ');
  const kind = ownership.blocked ? 'exclusive territory' : 'shared territory';
  return `You are editing ${ownership.path}, which is in ${names}'s ${kind}: ${ownership.summary.split('\n').join('; ')}. ${names} may be changing it right now.`;
}
