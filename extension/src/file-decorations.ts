import * as vscode from 'vscode';
import { UNKNOWN_WRITER, type Violation } from '../../contracts/index.js';
import type { Ownership } from '../../contracts/lsp.js';
import type { OwnershipCache } from './ownership-cache.js';
import type { ViolatedFiles } from './violated-files.js';

const COLORS = { mine: 'fleet.ownedByMe', other: 'fleet.ownedByOther', contested: 'fleet.contested' } as const;
const VIOLATED_COLOR = 'fleet.violated';
/** Not a callsign's two letters: a violated file's badge cannot be read as a holder's mark. */
const VIOLATED_BADGE = '⚠';

/**
 * Explorer badges: the holder's two-letter mark in a colour that tells mine, another agent's and
 * contested apart, with a tooltip naming callsign, pattern, mode and expiry. A file with an
 * unacknowledged violation shows a warning badge in a colour of its own (its folders take the
 * colour), the tooltip naming writer and holder, until the operator acknowledges it. Changes come
 * from the ownership cache and the violated files, for exactly the URIs that changed.
 */
export class FleetFileDecorations implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri[]>();
  readonly onDidChangeFileDecorations = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly ownership: OwnershipCache,
    private readonly violated: ViolatedFiles,
  ) {
    this.subscriptions = [ownership.onDidChange((uris) => this.changed.fire(uris)), violated.onDidChange((uris) => this.changed.fire(uris))];
  }

  provideFileDecoration(uri: vscode.Uri): vscode.ProviderResult<vscode.FileDecoration> {
    if (uri.scheme !== 'file') return undefined;
    const violations = this.violated.at(uri);
    if (violations.length > 0) return violationDecoration(violations, this.ownership.peek(uri));
    const known = this.ownership.peek(uri);
    if (known !== undefined) return decorationFor(known);
    return this.ownership.lookup(uri).then(decorationFor);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}

export function decorationFor(ownership: Ownership | null): vscode.FileDecoration | undefined {
  if (!ownership) return undefined;
  const decoration = new vscode.FileDecoration(ownership.mark, `Fleet: ${ownership.summary}`, new vscode.ThemeColor(COLORS[ownership.kind]));
  decoration.propagate = false;
  return decoration;
}

function violationDecoration(violations: readonly Violation[], ownership: Ownership | null | undefined): vscode.FileDecoration {
  const [latest] = violations;
  const writer = latest!.writer === UNKNOWN_WRITER ? 'an unidentified writer' : latest!.writer;
  const more = violations.length > 1 ? ` (${violations.length} unacknowledged writes)` : '';
  const held = ownership ? `\nFleet: ${ownership.summary}` : '';
  const tooltip = `Fleet: territory violation${more}: ${writer} wrote this file, which ${latest!.holder} holds exclusively (seen by ${latest!.source} at ${new Date(latest!.at).toLocaleTimeString()}). Shown until the operator acknowledges it (fleet call fleet_violation_ack).${held}`;
  const decoration = new vscode.FileDecoration(VIOLATED_BADGE, tooltip, new vscode.ThemeColor(VIOLATED_COLOR));
  decoration.propagate = true;
  return decoration;
}
