import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { FleetChanges, LspNotificationParams, ViewClaim } from '../../../contracts/lsp.js';
import { scopeName } from '../../../contracts/scope-name.js';
import type { FleetConfig } from '../config.js';
import type { FleetContext } from '../fleet-context.js';
import { readableReason } from '../../../contracts/reason-text.js';
import { BranchWorkByHolder, conflictItem, holderKey, moreItem, splitHolderKey, writeSetItem } from './branch-work.js';
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
/** A row of a holder's branch work: its write-set, one forecast conflict, or what a capped list left out. */
export interface BranchRowNode {
  readonly kind: 'writeSet' | 'conflict' | 'moreConflicts' | 'moreClaims';
  readonly id: string;
  readonly parent: HolderNode;
}
export type TerritoryNode = RepositoryNode | HolderNode | ClaimNode | BranchRowNode;

/** One row of the view as the person reads it (for the API and its tests). */
export interface TerritoryRow {
  readonly depth: number;
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
}

const TICK_MS = 15_000;
/** A holder with more claims than this starts collapsed: refreshing its row then builds one item, not all of them. */
const EXPANDED_UP_TO = 12;
/** Rows a holder lists at most: a holder with thousands of claims shows these and "… and N more". */
const MAX_CLAIM_ROWS = 100;
const MAX_CONFLICT_ROWS = 20;

/**
 * Territory: live claims by repository, then by agent, each with pattern, mode, reason and (for
 * TTL claims) expiry. Nodes are kept by id and updated in place: a change refreshes the claims it
 * names and their holder's row, never the whole tree (except when a repository appears or goes).
 * Selecting a claim reveals the files it covers; its context menu releases it (the operator may
 * release any claim; the plane records who did it). Under each agent on a branch of its own: its
 * write-set (branch → target, how many paths) and the merge conflicts forecast for it, updated
 * from fleet/didChangeForecast for the agents whose branch work changed. Long lists are capped.
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
  private readonly branchWork = new BranchWorkByHolder();
  /** Claims past a holder's cap that were revealed (a CodeLens, a warning): listed from then on. */
  private readonly revealedPastCap = new Set<string>();

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
      ctx.onDidChangeForecast((forecast) => this.updateBranchWork(forecast)),
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
      for (const key of this.branchWork.keys()) this.holderFor(splitHolderKey(key).scope, splitHolderKey(key).agentId, new Set());
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

  /** Only the holders whose write-set or forecast conflicts changed are refreshed (or added, or dropped). */
  private updateBranchWork(forecast: LspNotificationParams<'fleet/didChangeForecast'>): void {
    const agentIds = new Map((this.ctx.state?.agents ?? []).map((agent) => [agent.callsign, agent.agentId]));
    // A gone builder's write-set, kept while its items await landing, sits under the holder of their held claims.
    for (const claim of this.ctx.state?.claims ?? []) if (claim.heldFor !== undefined && !agentIds.has(claim.holder)) agentIds.set(claim.holder, claim.agentId);
    const touched = new Set<TerritoryNode>();
    for (const key of this.branchWork.replace(forecast, (callsign) => agentIds.get(callsign))) {
      const { scope, agentId } = splitHolderKey(key);
      const holder = this.holderFor(scope, agentId, touched);
      touched.add(holder);
      this.dropIfEmpty(holder, touched);
    }
    if (touched.has(ROOT)) return this.refresh(undefined);
    if (touched.size > 0) this.refresh([...touched]);
  }

  private holderFor(scope: string, agentId: string, touched: Set<TerritoryNode>): HolderNode {
    let repository = this.repositories.get(scope);
    if (!repository) {
      this.repositories.set(scope, (repository = { kind: 'repository', scope }));
      touched.add(ROOT);
    }
    const key = holderKey(scope, agentId);
    let holder = this.holders.get(key);
    if (!holder) {
      this.holders.set(key, (holder = { kind: 'holder', scope, agentId }));
      this.claimsOf.set(holder, new Map());
      touched.add(repository);
    }
    return holder;
  }

  private place(claim: ViewClaim, touched: Set<TerritoryNode>): void {
    const holder = this.holderFor(claim.scope, claim.agentId, touched);
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
    this.claimsOf.get(holder)!.delete(claimId);
    this.revealedPastCap.delete(claimId);
    touched.add(holder);
    this.dropIfEmpty(holder, touched);
  }

  /** A holder stays while it has claims or branch work; its repository while it has holders. */
  private dropIfEmpty(holder: HolderNode, touched: Set<TerritoryNode>): void {
    if ((this.claimsOf.get(holder)?.size ?? 0) > 0 || this.branchWork.of(holderKey(holder.scope, holder.agentId))) return;
    touched.delete(holder);
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
    if (!this.shownClaims(node.parent).includes(node)) {
      // Past the holder's cap: listed on demand, so the row to select exists.
      this.revealedPastCap.add(claimId);
      this.refresh([node.parent]);
    }
    await this.view.reveal(node, { select: true, focus: true, expand: true });
    return true;
  }

  /** Every row as the view shows it, depth first (expanded or not): what the person reads there. */
  rows(): TerritoryRow[] {
    const walk = (node: TerritoryNode, depth: number): TerritoryRow[] => {
      const item = this.item(node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      const tooltip = typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? '');
      const row = { depth, label, description: typeof item.description === 'string' ? item.description : '', tooltip };
      return [row, ...this.getChildren(node).flatMap((child) => walk(child, depth + 1))];
    };
    return this.getChildren().flatMap((node) => walk(node, 0));
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
    if (element.kind === 'holder') return [...this.branchRows(element), ...this.claimRows(element)];
    return [];
  }

  private branchRows(holder: HolderNode): BranchRowNode[] {
    const work = this.branchWork.of(holderKey(holder.scope, holder.agentId));
    if (!work) return [];
    const id = `${holder.scope}:${holder.agentId}`;
    const conflicts = work.conflicts.slice(0, MAX_CONFLICT_ROWS).map((_, index): BranchRowNode => ({ kind: 'conflict', id: `${id}:${index}`, parent: holder }));
    const more: BranchRowNode[] = work.conflicts.length > MAX_CONFLICT_ROWS ? [{ kind: 'moreConflicts', id, parent: holder }] : [];
    return [{ kind: 'writeSet', id, parent: holder }, ...conflicts, ...more];
  }

  /** The first MAX_CLAIM_ROWS claims by pattern, those revealed past them, and "… and N more". */
  private claimRows(holder: HolderNode): TerritoryNode[] {
    const all = this.claimsOf.get(holder)?.size ?? 0;
    const shown = this.shownClaims(holder);
    return all > shown.length ? [...shown, { kind: 'moreClaims', id: `${holder.scope}:${holder.agentId}`, parent: holder }] : shown;
  }

  private shownClaims(holder: HolderNode): ClaimNode[] {
    const pattern = (node: ClaimNode) => this.ctx.records?.claim(node.claimId)?.pattern ?? '';
    const sorted = [...(this.claimsOf.get(holder)?.values() ?? [])].sort((a, b) => pattern(a).localeCompare(pattern(b)));
    return sorted.filter((node, index) => index < MAX_CLAIM_ROWS || this.revealedPastCap.has(node.claimId));
  }

  getParent(element: TerritoryNode): TerritoryNode | undefined {
    if (element.kind !== 'repository' && element.kind !== 'holder') return element.parent;
    if (element.kind === 'holder') return this.repositories.get(element.scope);
    return undefined;
  }

  getTreeItem(node: TerritoryNode): vscode.TreeItem {
    this.counter.count('territory');
    return this.item(node);
  }

  private item(node: TerritoryNode): vscode.TreeItem {
    if (node.kind === 'repository') return this.repositoryItem(node);
    if (node.kind === 'holder') return this.holderItem(node);
    if (node.kind === 'claim') return this.claimItem(node);
    return this.branchRowItem(node);
  }

  private branchRowItem(node: BranchRowNode): vscode.TreeItem {
    const work = this.branchWork.of(holderKey(node.parent.scope, node.parent.agentId));
    const claims = this.claimsOf.get(node.parent)?.size ?? 0;
    if (node.kind === 'moreClaims') {
      const hidden = claims - this.shownClaims(node.parent).length;
      return moreItem(hidden, 'claims', `more-claims:${node.id}`, `${hidden.toLocaleString('en-US')} more claims are not listed here: a claim's CodeLens or Fleet: Show Territory reveals it.`);
    }
    if (!work) return new vscode.TreeItem('(landed)');
    if (node.kind === 'writeSet') return writeSetItem(work.writeSet, `write-set:${node.id}`);
    if (node.kind === 'moreConflicts') return moreItem(work.conflicts.length - MAX_CONFLICT_ROWS, 'forecast conflicts', `more-conflicts:${node.id}`, `fleet conflicts ${work.writeSet.callsign} lists them all.`);
    const conflict = work.conflicts[Number(node.id.slice(node.id.lastIndexOf(':') + 1))];
    return conflict ? conflictItem(conflict, `conflict:${node.id}`) : new vscode.TreeItem('(cleared)');
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
    const conflicts = this.branchWork.of(holderKey(node.scope, node.agentId))?.conflicts.length ?? 0;
    const item = new vscode.TreeItem(mine ? `${callsign} (you)` : callsign, count > EXPANDED_UP_TO ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
    item.id = `holder:${node.scope}:${node.agentId}`;
    const lapse = isStale(agent?.status) && agent?.claimsLapseAt ? `lapse ${until(agent.claimsLapseAt)}` : undefined;
    item.description = [agent?.mark, `${count.toLocaleString('en-US')} claim${count === 1 ? '' : 's'}`, conflicts > 0 ? `⇄ ${conflicts}` : undefined, lapse].filter(Boolean).join(' · ');
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

function isStale(status: string | undefined): boolean {
  return status === 'unknown' || status === 'stalled';
}
