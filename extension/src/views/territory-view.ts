import * as vscode from 'vscode';
import type { ViewClaim } from '../../../contracts/lsp.js';
import { scopeName } from '../../../contracts/scope-name.js';
import type { FleetContext } from '../fleet-context.js';
import { until } from './relative-time.js';

export interface HolderNode {
  kind: 'holder';
  callsign: string;
  agentId: string;
  mine: boolean;
}

export interface ClaimNode {
  kind: 'claim';
  claim: ViewClaim;
  mine: boolean;
}

export type TerritoryNode = HolderNode | ClaimNode;

const TICK_MS = 15_000;

/**
 * Territory: live claims grouped by agent, each with pattern, mode, expiry countdown and reason.
 * Selecting a claim reveals the files it covers; its context menu releases it (the operator may
 * release any claim; the plane records who did it).
 */
export class TerritoryView implements vscode.TreeDataProvider<TerritoryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<TerritoryNode>;
  private readonly subscriptions: vscode.Disposable[];
  private readonly ticker: NodeJS.Timeout;
  private holders: HolderNode[] = [];
  private claims = new Map<string, ClaimNode[]>();

  constructor(private readonly ctx: FleetContext) {
    this.view = vscode.window.createTreeView('fleet.territory', { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions = [this.view, ctx.onDidChangeState(() => this.rebuild())];
    this.ticker = setInterval(() => this.view.visible && this.changed.fire(), TICK_MS);
    this.rebuild();
  }

  private rebuild(): void {
    const state = this.ctx.state;
    const mine = state?.operator?.agentId;
    const byAgent = new Map<string, ClaimNode[]>();
    const holders = new Map<string, HolderNode>();
    for (const claim of state?.claims ?? []) {
      holders.set(claim.agentId, { kind: 'holder', callsign: claim.holder, agentId: claim.agentId, mine: claim.agentId === mine });
      const list = byAgent.get(claim.agentId) ?? [];
      list.push({ kind: 'claim', claim, mine: claim.agentId === mine });
      byAgent.set(claim.agentId, list);
    }
    for (const list of byAgent.values()) list.sort((a, b) => a.claim.pattern.localeCompare(b.claim.pattern));
    this.holders = [...holders.values()].sort((a, b) => Number(b.mine) - Number(a.mine) || a.callsign.localeCompare(b.callsign));
    this.claims = byAgent;
    this.changed.fire();
  }

  /** Shows and selects a claim, e.g. from a CodeLens or the edit guard's warning. */
  async reveal(claimId: string): Promise<boolean> {
    for (const list of this.claims.values()) {
      const node = list.find((candidate) => candidate.claim.id === claimId);
      if (node) {
        await this.view.reveal(node, { select: true, focus: true, expand: true });
        return true;
      }
    }
    return false;
  }

  getChildren(element?: TerritoryNode): TerritoryNode[] {
    if (!element) return this.holders;
    return element.kind === 'holder' ? (this.claims.get(element.agentId) ?? []) : [];
  }

  getParent(element: TerritoryNode): TerritoryNode | undefined {
    if (element.kind === 'holder') return undefined;
    return this.holders.find((holder) => holder.agentId === element.claim.agentId);
  }

  getTreeItem(node: TerritoryNode): vscode.TreeItem {
    if (node.kind === 'holder') {
      const count = this.claims.get(node.agentId)?.length ?? 0;
      const item = new vscode.TreeItem(node.mine ? `${node.callsign} (you)` : node.callsign, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `holder:${node.agentId}`;
      item.description = `${count} claim${count === 1 ? '' : 's'}`;
      item.iconPath = new vscode.ThemeIcon('account', new vscode.ThemeColor(node.mine ? 'fleet.ownedByMe' : 'fleet.ownedByOther'));
      item.contextValue = 'holder';
      return item;
    }
    const { claim } = node;
    const item = new vscode.TreeItem(claim.pattern, vscode.TreeItemCollapsibleState.None);
    item.id = `claim:${claim.id}`;
    const expiry =
      claim.expiresAt === null ? `held while ${claim.holder}'s process runs` : claim.ttlSeconds !== undefined ? `expires ${until(claim.expiresAt)}` : `lapses ${until(claim.expiresAt)} without a heartbeat`;
    item.description = [claim.mode, expiry, claim.reason ? `“${claim.reason}”` : undefined, claim.root ? undefined : scopeName(claim.scope)].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon(claim.mode === 'exclusive' ? 'lock' : 'people', new vscode.ThemeColor(node.mine ? 'fleet.ownedByMe' : 'fleet.ownedByOther'));
    item.contextValue = node.mine ? 'claim.mine' : 'claim.other';
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**${claim.holder}** holds \`${claim.pattern}\` (${claim.mode})\n\n`);
    const at = claim.expiresAt === null ? '' : ` (${new Date(claim.expiresAt).toLocaleString()})`;
    tooltip.appendText(`${expiry}${at}; fence ${claim.fence}; granted ${new Date(claim.grantedAt).toLocaleString()}\n\n`);
    if (claim.reason) tooltip.appendText(`Reason: ${claim.reason}\n\n`);
    tooltip.appendText(`Repository: ${scopeName(claim.scope)} (${claim.scope})${claim.root ? `, here at ${claim.root}` : ' — not open in this window'}`);
    item.tooltip = tooltip;
    item.command = { command: 'fleet.revealClaim', title: 'Reveal Claimed Files', arguments: [{ claimId: claim.id }] };
    return item;
  }

  dispose(): void {
    clearInterval(this.ticker);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}
