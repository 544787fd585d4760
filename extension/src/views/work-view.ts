import * as vscode from 'vscode';
import type { WorkItem, WorkStatus } from '../../../contracts/index.js';
import type { FleetChanges } from '../../../contracts/lsp.js';
import type { FleetContext } from '../fleet-context.js';
import { readableReason } from '../../../contracts/reason-text.js';
import { RefreshThrottle } from './refresh-throttle.js';
import type { TreeCounter } from './tree-counter.js';
import { since } from './relative-time.js';
import { workDetails, type WorkDetail } from './work-details.js';

interface StatusNode {
  readonly kind: 'status';
  readonly status: WorkStatus;
  /** In the order the items reached this group: the plane's queue order, oldest first. */
  readonly items: Map<string, ItemNode>;
  /** The row standing for the items past GROUP_ROWS. */
  readonly more: MoreNode;
  /** The item rows VS Code was last given for this group: only those can need a refresh. */
  shown: Set<ItemNode>;
}
/** One item in one group: a move makes a new node (VS Code keeps tree nodes by element and by id). */
interface ItemNode {
  readonly kind: 'item';
  readonly id: string;
  readonly status: WorkStatus;
}
interface MoreNode {
  readonly kind: 'more';
  readonly status: WorkStatus;
}

interface DetailNode {
  readonly kind: 'detail';
  readonly id: string;
  readonly detail: WorkDetail;
}

type WorkNode = StatusNode | ItemNode | MoreNode | DetailNode;

/**
 * Item rows a group lists at most, the oldest first; one "… and N more" row stands for the rest.
 * Refreshing a group builds its children again: bounded, that costs the same at 20 or 20,000 items.
 */
export const GROUP_ROWS = 100;
/** A burst of queue changes repaints the view at most this often (the attention badge at once). */
const REFRESH_INTERVAL_MS = 1000;

/** Statuses in the order a person reads the queue: what needs attention first. */
const ORDER: { status: WorkStatus; label: string; icon: string; color?: string }[] = [
  { status: 'escalated', label: 'Escalated', icon: 'report', color: 'list.errorForeground' },
  { status: 'blocked', label: 'Blocked', icon: 'error', color: 'list.warningForeground' },
  { status: 'review', label: 'Waiting for verification', icon: 'eye' },
  { status: 'verified', label: 'Verified, waiting for a decision', icon: 'pass' },
  { status: 'rework', label: 'Rework', icon: 'debug-restart', color: 'list.warningForeground' },
  { status: 'in_progress', label: 'In progress', icon: 'sync' },
  { status: 'ready', label: 'Ready to pull', icon: 'circle-large-outline' },
  { status: 'done', label: 'Done', icon: 'check', color: 'charts.green' },
  { status: 'rolled_back', label: 'Rolled back', icon: 'discard' },
];

/**
 * The work queue (fleet_work_list), grouped by status, attention first. Agents pull ready work;
 * the person reads who has what, what waits for review or a decision, and what is blocked. A change
 * refreshes the items it names, or the groups an item moved between, never the whole queue; a
 * group lists its oldest GROUP_ROWS items, and bursts of changes repaint at most once a second.
 */
export class WorkView implements vscode.TreeDataProvider<WorkNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<WorkNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<WorkNode>;
  private readonly subscription: vscode.Disposable;
  private readonly groups = new Map<WorkStatus, StatusNode>(ORDER.map(({ status }) => [status, { kind: 'status', status, items: new Map(), more: { kind: 'more', status }, shown: new Set() }]));
  private readonly items = new Map<string, ItemNode>();
  private readonly throttle = new RefreshThrottle<WorkNode>((rows) => this.refresh(rows), REFRESH_INTERVAL_MS);
  /** The groups listed at the last repaint: one appearing or emptying changes the list of groups itself. */
  private listed = '';

  constructor(
    private readonly ctx: FleetContext,
    private readonly counter: TreeCounter,
  ) {
    this.view = vscode.window.createTreeView('fleet.work', { treeDataProvider: this, showCollapseAll: true });
    this.subscription = ctx.onDidChangeFleet((changes) => this.update(changes));
    this.update('all');
  }

  private update(changes: FleetChanges | 'all'): void {
    if (changes === 'all') {
      this.items.clear();
      for (const group of this.groups.values()) group.items.clear();
      for (const item of this.ctx.state?.work ?? []) this.place(item.id, item.status);
      this.badge();
      return this.throttle.request(undefined);
    }
    if (changes.work.length + changes.removedWork.length === 0) return;
    const rows = new Set<WorkNode>();
    for (const itemId of changes.removedWork) {
      const node = this.items.get(itemId);
      if (node) rows.add(this.leave(node));
      this.items.delete(itemId);
    }
    for (const item of changes.work) {
      const node = this.items.get(item.id);
      if (node?.status === item.status) {
        // A row VS Code was never given (past the cap, in a closed group) has nothing to repaint.
        if (this.groups.get(node.status)!.shown.has(node)) rows.add(node);
        continue;
      }
      if (node) rows.add(this.leave(node));
      this.place(item.id, item.status);
      rows.add(this.groups.get(item.status)!);
    }
    this.badge();
    this.throttle.request(rows);
  }

  /** Takes the item out of its group, which repaints: its count, and its rows if the item was listed. */
  private leave(node: ItemNode): StatusNode {
    const group = this.groups.get(node.status)!;
    group.items.delete(node.id);
    return group;
  }

  private place(id: string, status: WorkStatus): void {
    const node: ItemNode = { kind: 'item', id, status };
    this.items.set(id, node);
    this.groups.get(status)?.items.set(id, node);
  }

  private shownGroups(): string {
    return ORDER.filter(({ status }) => this.groups.get(status)!.items.size > 0).map(({ status }) => status).join();
  }

  private badge(): void {
    const attention = this.groups.get('blocked')!.items.size + this.groups.get('escalated')!.items.size;
    this.view.badge = attention > 0 ? { value: attention, tooltip: `${attention} work item(s) blocked or escalated` } : undefined;
  }

  /** Every refresh goes through here, so the counter sees what each change cost. */
  private refresh(asked: WorkNode[] | undefined): void {
    const listed = this.shownGroups();
    // A group appeared or emptied: the list of groups itself changed.
    const whole = asked === undefined || listed !== this.listed;
    this.listed = listed;
    const groups = new Set(asked);
    // An item that moved since it was asked for is gone from that group (refreshed for it); one whose group repaints goes with it.
    const rows = whole ? undefined : asked.filter((row) => row.kind !== 'item' || (this.items.get(row.id) === row && !groups.has(this.groups.get(row.status)!)));
    if (rows?.length === 0) return;
    this.counter.refreshed('work', rows);
    this.changed.fire(rows);
  }

  getChildren(element?: WorkNode): WorkNode[] {
    if (!element) return ORDER.map(({ status }) => this.groups.get(status)!).filter((group) => group.items.size > 0);
    if (element.kind === 'status') {
      const rows: WorkNode[] = [];
      for (const node of element.items.values()) {
        if (rows.length === GROUP_ROWS) break;
        rows.push(node);
      }
      element.shown = new Set(rows as ItemNode[]);
      return element.items.size > GROUP_ROWS ? [...rows, element.more] : rows;
    }
    if (element.kind === 'more') return [];
    const [parent, details] = element.kind === 'item' ? [itemRowId(element), this.detailsOf(element.id)] : [element.id, element.detail.children ?? []];
    return details.map((detail, index) => ({ kind: 'detail' as const, id: `${parent}/${index}`, detail }));
  }

  private detailsOf(id: string): WorkDetail[] {
    const work = this.work(id);
    return work ? workDetails(work) : [];
  }

  private work(id: string): WorkItem | undefined {
    return this.ctx.records?.workItem(id);
  }

  getTreeItem(node: WorkNode): vscode.TreeItem {
    this.counter.count('work');
    if (node.kind === 'status') {
      const look = ORDER.find((entry) => entry.status === node.status)!;
      const collapsed = node.status === 'done' || node.status === 'rolled_back';
      const item = new vscode.TreeItem(look.label, collapsed ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
      item.id = `status:${node.status}`;
      item.description = String(node.items.size);
      item.iconPath = new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
      return item;
    }
    if (node.kind === 'detail') {
      const item = new vscode.TreeItem(node.detail.label, node.detail.children?.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      item.id = node.id;
      item.description = node.detail.description;
      item.tooltip = node.detail.description;
      return item;
    }
    if (node.kind === 'more') return this.moreItem(node);
    const work = this.work(node.id);
    if (!work) return new vscode.TreeItem('(gone)');
    // Expanded: its plan, its rounds and what it waits for.
    const item = new vscode.TreeItem(work.title, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = itemRowId(node);
    const blockers = work.blockedBy.map((id) => this.work(id)?.title ?? 'an item no longer listed');
    item.description = [work.assignee, blockers.length > 0 ? `waiting on ${blockers.length}` : undefined, since(work.updatedAt), work.kind].filter(Boolean).join(' · ');
    item.contextValue = `work.${work.status}`;
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(`${work.title} — ${work.status}${work.statusReason ? `: ${readableReason(work.statusReason)}` : ''}\n\n`);
    if (work.assignee) tooltip.appendText(`Assignee: ${work.assignee}${work.verifier ? `, verifier: ${work.verifier}` : ''}\n\n`);
    if (blockers.length > 0) tooltip.appendText(`Waiting on: ${blockers.join('; ')}\n\n`);
    if (work.paths.length > 0) tooltip.appendText(`Paths: ${work.paths.join(', ')}\n\n`);
    if (work.criteria.length > 0) tooltip.appendText(`Criteria: ${work.criteria.join('; ')}\n\n`);
    if (work.decision) tooltip.appendText(`Decision: ${work.decision.disposition} (${work.decision.reasonCode})`);
    item.tooltip = tooltip;
    return item;
  }

  private moreItem(node: MoreNode): vscode.TreeItem {
    const hidden = this.groups.get(node.status)!.items.size - GROUP_ROWS;
    const item = new vscode.TreeItem(`… and ${hidden.toLocaleString('en-US')} more`, vscode.TreeItemCollapsibleState.None);
    item.id = `more:${node.status}`;
    item.tooltip = `The view lists the ${GROUP_ROWS} oldest; \`fleet work list --status ${node.status}\` lists them all.`;
    return item;
  }

  dispose(): void {
    this.throttle.dispose();
    this.subscription.dispose();
    this.view.dispose();
    this.changed.dispose();
  }
}

/** Unique across the tree even while VS Code still holds a moved item under its old group (it refreshes the two groups one after the other). */
function itemRowId(node: ItemNode): string {
  return `work:${node.status}:${node.id}`;
}
