import * as vscode from 'vscode';
import type { OwnershipCache } from './ownership-cache.js';

/**
 * The text of each open file as it was before the person's first edit in another agent's
 * territory, so that "Revert" can restore it even when autosave has already written the edit (a
 * save cannot be vetoed). A snapshot is taken when a file opens, when it is saved and when its
 * ownership changes, and is held still ("frozen") from the first out-of-territory edit until the
 * revert or the next ownership change.
 */
export class PreEditSnapshots implements vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly frozen = new Set<string>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(ownership: OwnershipCache) {
    for (const document of vscode.workspace.textDocuments) this.take(document);
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((document) => this.take(document)),
      vscode.workspace.onDidSaveTextDocument((document) => this.take(document)),
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.texts.delete(document.uri.toString());
        this.frozen.delete(document.uri.toString());
      }),
      ownership.onDidChange((uris) => {
        const changed = new Set(uris.map((uri) => uri.toString()));
        for (const document of vscode.workspace.textDocuments) {
          if (!changed.has(document.uri.toString())) continue;
          this.frozen.delete(document.uri.toString());
          this.take(document);
        }
      }),
    ];
  }

  /** Holds the snapshot of `uri` still and returns it: the content before this edit. */
  freeze(uri: vscode.Uri): string | undefined {
    this.frozen.add(uri.toString());
    return this.texts.get(uri.toString());
  }

  isFrozen(uri: vscode.Uri): boolean {
    return this.frozen.has(uri.toString());
  }

  /** After a revert: the restored text is the new starting point and the next edit warns again. */
  thaw(document: vscode.TextDocument): void {
    this.frozen.delete(document.uri.toString());
    this.take(document);
  }

  private take(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    if (document.uri.scheme !== 'file' || this.frozen.has(key)) return;
    this.texts.set(key, document.getText());
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
