import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { FleetChanges, ViewClaim } from '../../../contracts/lsp.js';
import { scopeName } from '../../../contracts/scope-name.js';
import type { FleetConfig } from '../config.js';
import type { FleetContext } from '../fleet-context.js';
import { readableReason } from '../../../contracts/reason-text.js';
import { until } from './relative-time.js';
import type { TreeCounter } from './tree-counter.js';

export interface RepositoryNode {
  readonly kind: 'repository';
  readonly scope: string;
}
export interface HolderNode {
  readonly kind: 'holder';
  readonly scope: string;
  readonly agentId: string;
}
export interface ClaimNode {
  readonly kind: 'claim';
  readonly claimId: string;
  readonly parent: HolderNode;
}
export type TerritoryNode = RepositoryNode | HolderNode | ClaimNode;

const TICK_MS = 15_000;
/** A holder with more claims than this starts collapsed: refreshing its row then builds one item, not all of them. */
const EXPANDED_UP_TO = 12;

/**
 * Territory: live claims by repository, then by agent, each with pattern, mode, reason and (for
 * TTL claims) expiry. Nodes are kept by id and updated in place: a change refreshes the claims it
 * names and their holder's row, never the whole tree (except when a repository appears or goes).
 * Selecting a claim reveals the files it covers; its context menu releases it (the operator may
 * release any claim; the plane records who did it).
 */
export class TerritoryView implements vscode.TreeDataProvider<TerritoryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TerritoryNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<TerritoryNode>;
  private readonly subscriptions: vscode.Disposable[];
  private readonly ticker: NodeJS.Timeout;
  private readonly repositories = new Map<string, RepositoryNode>();
  private readonly holders = new Map<string, HolderNode>();
  private readonly claimsOf = new Map<HolderNode, Map<string, ClaimNode>>();
  private readonly claims = new Map<string, ClaimNode>();
  /** What each agent's holder rows last showed of it (mark, silence). */
  private readonly agentShown = new Map<string, string>();

  constructor(
    private readonly ctx: FleetContext,
    private readonly config: FleetConfig,
    private readonly counter: TreeCounter,
  ) {
    this.view = vscode.window.createTreeView('fleet.territory', { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions = [
      this.view,
      ctx.onDidChangeFleet((changes) => this.update(changes)),
      config.onDidChange((event) => event.affectsConfiguration('fleet.agentColors') && this.refresh(undefined)),
    ];
    this.ticker = setInterval(() => this.view.visible && this.tick(), TICK_MS);
    this.update('all');
  }

  private update(changes: FleetChanges | 'all'): void {
    if (changes === 'all') {
      this.repositories.clear();
      this.holders.clear();
      this.claimsOf.clear();
      this.claims.clear();
      this.agentShown.clear();
      for (const agent of this.ctx.state?.agents ?? []) this.agentShown.set(agent.agentId, `${agent.mark}|${isStale(agent.status)}`);
      for (const claim of this.ctx.state?.claims ?? []) this.place(claim, new Set());
      return this.refresh(undefined);
    }
    const touched = new Set<TerritoryNode>();
    for (const claimId of changes.releasedClaims) this.remove(claimId, touched);
    for (const claim of changes.claims) {
      const node = this.claims.get(claim.id);
      if (node && node.parent.scope === claim.scope && node.parent.agentId === claim.agentId) touched.add(node);
      else {
        if (node) this.remove(claim.id, touched);
        this.place(claim, touched);
      }
    }
    // A holder row shows its agent's mark and whether it went silent: refreshed when those change (a heartbeat alone does not).
    for (const agent of changes.agents) {
      const shown = `${agent.mark}|${isStale(agent.status)}`;
      if (this.agentShown.get(agent.agentId) === shown) continue;
      this.agentShown.set(agent.agentId, shown);
      for (const repository of this.repositories.values()) {
        const holder = this.holders.get(holderKey(repository.scope, agent.agentId));
        if (holder) touched.add(holder);
      }
    }
    if (touched.has(ROOT)) return this.refresh(undefined);
    // A parent refreshed rebuilds its children: naming them too would only repeat the work.
    const rows = [...touched].filter((node) => !(node.kind === 'claim' && touched.has(node.parent)));
    if (rows.length > 0) this.refresh(rows);
  }

  private place(claim: ViewClaim, touched: Set<TerritoryNode>): void {
    let repository = this.repositories.get(claim.scope);
    if (!repository) {
      this.repositories.set(claim.scope, (repository = { kind: 'repository', scope: claim.scope }));
      touched.add(ROOT);
    }
    const key = holderKey(claim.scope, claim.agentId);
    let holder = this.holders.get(key);
    if (!holder) {
      this.holders.set(key, (holder = { kind: 'holder', scope: claim.scope, agentId: claim.agentId }));
      this.claimsOf.set(holder, new Map());
      touched.add(repository);
    }
    const node: ClaimNode = { kind: 'claim', claimId: claim.id, parent: holder };
    this.claims.set(claim.id, node);
    this.claimsOf.get(holder)!.set(claim.id, node);
    touched.add(holder);
  }

  private remove(claimId: string, touched: Set<TerritoryNode>): void {
    const node = this.claims.get(claimId);
    if (!node) return;
    this.claims.delete(claimId);
    const holder = node.parent;
    const siblings = this.claimsOf.get(holder)!;
    siblings.delete(claimId);
    if (siblings.size > 0) return void touched.add(holder);
    this.claimsOf.delete(holder);
    this.holders.delete(holderKey(holder.scope, holder.agentId));
    const repository = this.repositories.get(holder.scope)!;
    touched.add(repository);
    if ([...this.holders.values()].some((other) => other.scope === holder.scope)) return;
    this.repositories.delete(holder.scope);
    touched.add(ROOT);
  }

  /** Only the rows whose text moves with time: TTL claims' expiry, stale holders' lapse. */
  private tick(): void {
    const rows: TerritoryNode[] = [];
    for (const node of this.claims.values()) if (this.ctx.records?.claim(node.claimId)?.ttlSeconds !== undefined) rows.push(node);
    for (const holder of this.holders.values()) if (isStale(this.ctx.records?.agent(holder.agentId)?.status)) rows.push(holder);
    if (rows.length > 0) this.refresh(rows);
  }

  /** Shows and selects a claim, e.g. from a CodeLens or the edit guard's warning. */
  async reveal(claimId: string): Promise<boolean> {
    const node = this.claims.get(claimId);
    if (!node) return false;
    await this.view.reveal(node, { select: true, focus: true, expand: true });
    return true;
  }

  /** Every refresh goes through here, so the counter sees what each change cost. */
  private refresh(rows: TerritoryNode[] | undefined): void {
    this.counter.refreshed('territory', rows);
    this.changed.fire(rows);
  }

  getChildren(element?: TerritoryNode): TerritoryNode[] {
    if (!element) return [...this.repositories.values()].sort((a, b) => this.repositoryName(a.scope).localeCompare(this.repositoryName(b.scope)));
    if (element.kind === 'repository') {
      const mine = this.ctx.state?.operator?.agentId;
      const callsign = (holder: HolderNode) => this.ctx.records?.agent(holder.agentId)?.callsign ?? holder.agentId;
      return [...this.holders.values()]
        .filter((holder) => holder.scope === element.scope)
        .sort((a, b) => Number(b.agentId === mine) - Number(a.agentId === mine) || callsign(a).localeCompare(callsign(b)));
    }
    if (element.kind === 'holder') {
      const pattern = (node: ClaimNode) => this.ctx.records?.claim(node.claimId)?.pattern ?? '';
      return [...(this.claimsOf.get(element)?.values() ?? [])].sort((a, b) => pattern(a).localeCompare(pattern(b)));
    }
    return [];
  }

  getParent(element: TerritoryNode): TerritoryNode | undefined {
    if (element.kind === 'claim') return element.parent;
    if (element.kind === 'holder') return this.repositories.get(element.scope);
    return undefined;
  }

  getTreeItem(node: TerritoryNode): vscode.TreeItem {
    this.counter.count('territory');
    if (node.kind === 'repository') return this.repositoryItem(node);
    if (node.kind === 'holder') return this.holderItem(node);
    return this.claimItem(node);
  }

  private repositoryName(scope: string): string {
    const root = this.anyClaimOf(scope)?.root;
    return root ? basename(root) : scopeName(scope);
  }

  private anyClaimOf(scope: string): ViewClaim | undefined {
    for (const holder of this.holders.values()) {
      if (holder.scope !== scope) continue;
      for (const node of this.claimsOf.get(holder)?.values() ?? []) return this.ctx.records?.claim(node.claimId);
    }
    return undefined;
  }

  private repositoryItem(node: RepositoryNode): vscode.TreeItem {
    const root = this.anyClaimOf(node.scope)?.root;
    const item = new vscode.TreeItem(this.repositoryName(node.scope), vscode.TreeItemCollapsibleState.Expanded);
    item.id = `repository:${node.scope}`;
    item.description = root ? undefined : 'not open here';
    item.tooltip = `Repository ${scopeName(node.scope)} (${node.scope})${root ? `, here at ${root}` : ', not open in this window'}`;
    item.iconPath = new vscode.ThemeIcon('repo');
    item.contextValue = 'repository';
    return item;
  }

  private holderItem(node: HolderNode): vscode.TreeItem {
    const agent = this.ctx.records?.agent(node.agentId);
    const callsign = agent?.callsign ?? this.firstClaim(node)?.holder ?? node.agentId;
    const mine = node.agentId === this.ctx.state?.operator?.agentId;
    const count = this.claimsOf.get(node)?.size ?? 0;
    const item = new vscode.TreeItem(mine ? `${callsign} (you)` : callsign, count > EXPANDED_UP_TO ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
    item.id = `holder:${node.scope}:${node.agentId}`;
    const lapse = isStale(agent?.status) && agent?.claimsLapseAt ? `lapse ${until(agent.claimsLapseAt)}` : undefined;
    item.description = [agent?.mark, `${count} claim${count === 1 ? '' : 's'}`, lapse].filter(Boolean).join(' · ');
    item.tooltip = `${callsign}'s claims in this repository. Claims without a TTL last while ${callsign} heartbeats${lapse ? `; it has gone silent: they ${lapse}` : ''}.`;
    const color = this.config.agentColor(callsign) ?? (mine ? 'fleet.ownedByMe' : 'fleet.ownedByOther');
    item.iconPath = new vscode.ThemeIcon('account', new vscode.ThemeColor(color));
    item.contextValue = 'holder';
    return item;
  }

  private firstClaim(node: HolderNode): ViewClaim | undefined {
    for (const claim of this.claimsOf.get(node)?.values() ?? []) return this.ctx.records?.claim(claim.claimId);
    return undefined;
  }

  private claimItem(node: ClaimNode): vscode.TreeItem {
    const claim = this.ctx.records?.claim(node.claimId);
    if (!claim) return new vscode.TreeItem('(released)');
    const mine = claim.agentId === this.ctx.state?.operator?.agentId;
    const item = new vscode.TreeItem(claim.pattern, vscode.TreeItemCollapsibleState.None);
    item.id = `claim:${claim.id}`;
    const reason = claim.reason ? readableReason(claim.reason) : '';
    const expiry = claim.ttlSeconds !== undefined && claim.expiresAt !== null ? `expires ${until(claim.expiresAt)}` : undefined;
    // The icon tells exclusive (a lock) from shared; the word is kept for shared, the exception.
    item.description = [claim.mode === 'shared' ? 'shared' : undefined, reason || undefined, expiry].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon(claim.mode === 'exclusive' ? 'lock' : 'organization', new vscode.ThemeColor(mine ? 'fleet.ownedByMe' : claim.mode === 'shared' ? 'fleet.sharedByOther' : 'fleet.ownedByOther'));
    item.contextValue = mine ? 'claim.mine' : 'claim.other';
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**${claim.holder}** holds \`${claim.pattern}\` — ${claim.mode === 'exclusive' ? 'exclusive: only its holder may write' : 'shared: other shared holders may write too'}\n\n`);
    const lifetime = expiry ? `${expiry} (${new Date(claim.expiresAt!).toLocaleString()})` : claim.expiresAt === null ? `held while ${claim.holder}'s process runs` : `held while ${claim.holder} heartbeats`;
    tooltip.appendText(`${lifetime}; granted ${new Date(claim.grantedAt).toLocaleString()}\n\n`);
    if (reason) tooltip.appendText(`Reason: ${reason}\n\n`);
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

/** Stands for "the list of repositories itself changed" in a set of rows to refresh. */
const ROOT: TerritoryNode = { kind: 'repository', scope: '\0root' };

function holderKey(scope: string, agentId: string): string {
  return `${scope}\0${agentId}`;
}

function isStale(status: string | undefined): boolean {
  return status === 'unknown' || status === 'stalled';
}
