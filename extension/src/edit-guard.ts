import * as vscode from 'vscode';
import type { Ownership } from '../../contracts/lsp.js';
import type { FleetConfig } from './config.js';
import type { OwnershipCache } from './ownership-cache.js';

export interface TerritoryWarning {
  uri: vscode.Uri;
  message: string;
}

const REVERT = 'Revert File';
const SHOW = 'Show Territory';
const BLOCK = 'Make Read-Only While Held';

/**
 * The edit guard in `warn` mode: the first edit to a file in another agent's territory brings a
 * warning that names the owner and offers to undo, look, or switch to block mode. One warning per
 * file until its ownership changes. (Block mode is the ReadonlyGuard.)
 */
export class EditGuard implements vscode.Disposable {
  private readonly warned = new Set<string>();
  private readonly warnings = new vscode.EventEmitter<TerritoryWarning>();
  /** Each warning shown, for the extension's API (tests, other extensions). */
  readonly onDidWarn = this.warnings.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly config: FleetConfig,
    private readonly ownership: OwnershipCache,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((event) => void this.edited(event)),
      // A file that changes hands warns again on the next edit.
      ownership.onDidChange((uris) => {
        for (const uri of uris) this.warned.delete(uri.toString());
      }),
    ];
  }

  private async edited(event: vscode.TextDocumentChangeEvent): Promise<void> {
    if (this.config.guard !== 'warn' || event.contentChanges.length === 0) return;
    const uri = event.document.uri;
    if (uri.scheme !== 'file' || this.warned.has(uri.toString())) return;
    const ownership = this.ownership.peek(uri) ?? (await this.ownership.lookup(uri));
    const others = ownership?.holders.filter((holder) => !holder.mine) ?? [];
    if (!ownership || others.length === 0 || this.warned.has(uri.toString())) return;
    this.warned.add(uri.toString());
    const message = warningText(ownership);
    this.warnings.fire({ uri, message });
    const choice = await vscode.window.showWarningMessage(message, REVERT, SHOW, BLOCK);
    if (choice === REVERT) {
      await vscode.window.showTextDocument(event.document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    } else if (choice === SHOW) {
      await vscode.commands.executeCommand('fleet.revealClaim', { claimId: others[0]!.claimId });
    } else if (choice === BLOCK) {
      await this.config.setGuard('block');
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.warnings.dispose();
  }
}

export function warningText(ownership: Ownership): string {
  const others = ownership.holders.filter((holder) => !holder.mine);
  const names = [...new Set(others.map((holder) => holder.callsign))].join(' and ');
  const kind = ownership.blocked ? 'exclusive territory' : 'shared territory';
  return `You are editing ${ownership.path}, which is in ${names}'s ${kind}: ${ownership.summary.split('\n').join('; ')}. ${names} may be changing it right now.`;
}
