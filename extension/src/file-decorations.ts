import * as vscode from 'vscode';
import { UNKNOWN_WRITER, type ForecastConflict, type Violation, type WorkItem } from '../../contracts/index.js';
import type { Ownership } from '../../contracts/lsp.js';
import type { FleetConfig } from './config.js';
import type { OwnershipCache } from './ownership-cache.js';
import type { ViolatedFiles } from './violated-files.js';
import type { ForecastFiles } from './forecast-files.js';

const COLORS = { mine: 'fleet.ownedByMe', other: 'fleet.ownedByOther', shared: 'fleet.sharedByOther', contested: 'fleet.contested' } as const;
const HELD_INSIDE_COLOR = 'fleet.heldInside';
const VIOLATED_COLOR = 'fleet.violated';
/** Not a callsign's two letters: a violated file's badge cannot be read as a holder's mark. */
const VIOLATED_BADGE = '⚠';
const FORECAST_COLOR = 'fleet.forecastConflict';
/** Two branches meeting: a file a merge of live work would conflict in. */
const FORECAST_BADGE = '⇄';
const AWAITING_LANDING_COLOR = 'fleet.awaitingLanding';
/** Work coming down onto the target: a file held for an item until its branch lands. */
const AWAITING_LANDING_BADGE = '⤓';

/**
 * Explorer badges: the holder's two-letter mark (unique among live agents) in a colour that tells
 * mine, another agent's exclusive, shared and contested apart (or the agent's own colour from
 * fleet.agentColors), with a tooltip naming callsign, pattern, mode and expiry. A folder nobody
 * holds with claims inside shows their count, so a collapsed folder hints at what it hides. A file with an
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
    private readonly forecast: ForecastFiles,
    private readonly config: FleetConfig,
    private readonly workItem: (id: string) => WorkItem | undefined,
  ) {
    this.subscriptions = [
      ownership.onDidChange((uris) => this.changed.fire(uris)),
      violated.onDidChange((uris) => this.changed.fire(uris)),
      forecast.onDidChange((uris) => this.changed.fire(uris)),
      // A new colour: every badge shown is asked again.
      config.onDidChange((event) => event.affectsConfiguration('fleet.agentColors') && this.changed.fire(ownership.knownUris())),
    ];
  }

  provideFileDecoration(uri: vscode.Uri): vscode.ProviderResult<vscode.FileDecoration> {
    if (uri.scheme !== 'file') return undefined;
    const violations = this.violated.at(uri);
    if (violations.length > 0) return violationDecoration(violations, this.ownership.peek(uri));
    const conflicts = this.forecast.at(uri);
    if (conflicts.length > 0) return forecastDecoration(conflicts, this.ownership.peek(uri));
    const known = this.ownership.peek(uri);
    if (known !== undefined) return this.decorate(uri, known);
    return this.ownership.lookup(uri).then((ownership) => this.decorate(uri, ownership));
  }

  private decorate(uri: vscode.Uri, ownership: Ownership | null): vscode.FileDecoration | undefined {
    if (ownership?.holders.every((holder) => holder.heldFor !== undefined)) return awaitingLandingDecoration(ownership, this.workItem);
    if (ownership) return decorationFor(ownership, (callsign) => this.config.agentColor(callsign));
    const inside = this.ownership.heldInside(uri);
    if (inside === 0) return undefined;
    const decoration = new vscode.FileDecoration(inside > 9 ? '9+' : String(inside), `Fleet: ${inside} claim${inside === 1 ? '' : 's'} held inside`, new vscode.ThemeColor(HELD_INSIDE_COLOR));
    decoration.propagate = false;
    return decoration;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}

export function decorationFor(ownership: Ownership, agentColor: (callsign: string) => string | undefined = () => undefined): vscode.FileDecoration {
  const callsigns = [...new Set(ownership.holders.filter((holder) => !holder.mine).map((holder) => holder.callsign))];
  const own = callsigns.length === 1 && ownership.kind !== 'contested' ? agentColor(callsigns[0]!) : undefined;
  const decoration = new vscode.FileDecoration(ownership.mark, `Fleet: ${headline(ownership, callsigns)}\n${ownership.summary}`, new vscode.ThemeColor(own ?? COLORS[ownership.kind]));
  decoration.propagate = false;
  return decoration;
}

/** The tooltip's first line: whose, and whether a person may write it. */
function headline(ownership: Ownership, others: readonly string[]): string {
  switch (ownership.kind) {
    case 'mine':
      return 'yours';
    case 'other':
      return `${others.join(', ')} holds it exclusively`;
    case 'shared':
      return `shared by ${others.join(', ')}${ownership.holders.some((holder) => holder.mine) ? ' and you' : ''} (shared claims: each may write it)`;
    case 'contested':
      return `contested: an exclusive claim beside another agent's`;
  }
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

/** A file in a forecast merge conflict: its own badge and colour, the tooltip naming both sides (and its holder, if any). */
export function forecastDecoration(conflicts: readonly ForecastConflict[], ownership: Ownership | null | undefined): vscode.FileDecoration {
  const side = (callsign: string, branch: string | undefined) => `${callsign} (${branch?.replace(/^refs\/heads\//, '') ?? 'detached'})`;
  const lines = conflicts.map((c) => `${side(c.callsign, c.branch)} with ${c.otherCallsign === undefined ? `the target ${c.otherBranch}` : side(c.otherCallsign, c.otherBranch)}`);
  const tooltip = [`Fleet: merging would conflict in this file (forecast)`, ...lines, ...(ownership ? [ownership.summary] : [])].join('\n');
  return new vscode.FileDecoration(FORECAST_BADGE, tooltip, new vscode.ThemeColor(FORECAST_COLOR));
}

/**
 * A file held for completed work until its branch lands (claims with `heldFor`, DESIGN §14): its
 * own badge, the tooltip naming the item and its branch.
 */
export function awaitingLandingDecoration(ownership: Ownership, workItem: (id: string) => WorkItem | undefined): vscode.FileDecoration {
  const items = [...new Set(ownership.holders.map((holder) => holder.heldFor!))].map((id) => {
    const item = workItem(id);
    const branch = item?.integration?.branch ?? 'unknown';
    return `awaiting landing: item ${id}${item ? ` (${item.title})` : ''}, branch ${branch}`;
  });
  const decoration = new vscode.FileDecoration(AWAITING_LANDING_BADGE, [...items.map((line) => `Fleet: ${line}`), ownership.summary].join('\n'), new vscode.ThemeColor(AWAITING_LANDING_COLOR));
  decoration.propagate = false;
  return decoration;
}
