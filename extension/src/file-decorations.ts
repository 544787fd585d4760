import * as vscode from 'vscode';
import type { Ownership } from '../../contracts/lsp.js';
import type { OwnershipCache } from './ownership-cache.js';

const COLORS = { mine: 'fleet.ownedByMe', other: 'fleet.ownedByOther', contested: 'fleet.contested' } as const;

/**
 * Explorer badges: the holder's two-letter mark in a colour that tells mine, another agent's and
 * contested apart, with a tooltip naming callsign, pattern, mode and expiry. Changes come from the
 * ownership cache, for exactly the URIs whose ownership changed.
 */
export class FleetFileDecorations implements vscode.FileDecorationProvider {
  readonly onDidChangeFileDecorations: vscode.Event<vscode.Uri[]>;

  constructor(private readonly ownership: OwnershipCache) {
    this.onDidChangeFileDecorations = ownership.onDidChange;
  }

  provideFileDecoration(uri: vscode.Uri): vscode.ProviderResult<vscode.FileDecoration> {
    if (uri.scheme !== 'file') return undefined;
    const known = this.ownership.peek(uri);
    if (known !== undefined) return decorationFor(known);
    return this.ownership.lookup(uri).then(decorationFor);
  }
}

export function decorationFor(ownership: Ownership | null): vscode.FileDecoration | undefined {
  if (!ownership) return undefined;
  const decoration = new vscode.FileDecoration(ownership.mark, `Fleet: ${ownership.summary}`, new vscode.ThemeColor(COLORS[ownership.kind]));
  decoration.propagate = false;
  return decoration;
}
