import * as vscode from 'vscode';
import type { WorkItem, WorkStatus } from '../../../contracts/index.js';
import type { FleetChanges } from '../../../contracts/lsp.js';
import type { FleetContext } from '../fleet-context.js';
import { readableReason } from './reason-text.js';
import type { TreeCounter } from './tree-counter.js';
import { since } from './relative-time.js';
import { workDetails, type WorkDetail } from './work-details.js';

interface StatusNode {
  readonly kind: 'status';
  readonly status: WorkStatus;
  readonly items: Map<string, ItemNode>;
}
interface ItemNode {
  readonly kind: 'item';
  readonly id: string;
  status: WorkStatus;
}

interface DetailNode {
  readonly kind: 'detail';
  readonly id: string;
  readonly detail: WorkDetail;
}

type WorkNode = StatusNode | ItemNode | DetailNode;

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
 * refreshes the items it names, or the groups an item moved between, never the whole queue.
 */
export class WorkView implements vscode.TreeDataProvider<WorkNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<WorkNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<WorkNode>;
  private readonly subscription: vscode.Disposable;
  private readonly groups = new Map<WorkStatus, StatusNode>(ORDER.map(({ status }) => [status, { kind: 'status', status, items: new Map() }]));
  private readonly items = new Map<string, ItemNode>();

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
      return this.refresh(undefined);
    }
    if (changes.work.length === 0) return;
    const shown = this.shownGroups();
    const rows = new Set<StatusNode | ItemNode>();
    for (const item of changes.work) {
      const node = this.items.get(item.id);
      if (node?.status === item.status) {
        rows.add(node);
        continue;
      }
      if (node) {
        this.groups.get(node.status)!.items.delete(item.id);
        rows.add(this.groups.get(node.status)!);
      }
      rows.add(this.groups.get(this.place(item.id, item.status).status)!);
    }
    this.badge();
    // A group appeared or emptied: the list of groups itself changed.
    if (this.shownGroups() !== shown) return this.refresh(undefined);
    this.refresh([...rows].filter((row) => row.kind === 'status' || !rows.has(this.groups.get(row.status)!)));
  }

  private place(id: string, status: WorkStatus): ItemNode {
    const node = this.items.get(id) ?? { kind: 'item' as const, id, status };
    node.status = status;
    this.items.set(id, node);
    this.groups.get(status)?.items.set(id, node);
    return node;
  }

  private shownGroups(): string {
    return ORDER.filter(({ status }) => this.groups.get(status)!.items.size > 0).map(({ status }) => status).join();
  }

  private badge(): void {
    const attention = this.groups.get('blocked')!.items.size + this.groups.get('escalated')!.items.size;
    this.view.badge = attention > 0 ? { value: attention, tooltip: `${attention} work item(s) blocked or escalated` } : undefined;
  }

  /** Every refresh goes through here, so the counter sees what each change cost. */
  private refresh(rows: WorkNode[] | undefined): void {
    this.counter.refreshed('work', rows);
    this.changed.fire(rows);
  }

  getChildren(element?: WorkNode): WorkNode[] {
    if (!element) return ORDER.map(({ status }) => this.groups.get(status)!).filter((group) => group.items.size > 0);
    if (element.kind === 'status') {
      const title = (node: ItemNode) => this.work(node.id)?.title ?? '';
      return [...element.items.values()].sort((a, b) => title(a).localeCompare(title(b)));
    }
    const work = element.kind === 'item' ? this.work(element.id) : undefined;
    const [parent, details] = element.kind === 'item' ? [`work:${element.id}`, work ? workDetails(work) : []] : [element.id, element.detail.children ?? []];
    return details.map((detail, index) => ({ kind: 'detail' as const, id: `${parent}/${index}`, detail }));
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
    const work = this.work(node.id);
    if (!work) return new vscode.TreeItem('(gone)');
    // Expanded: its plan, its rounds and what it waits for.
    const item = new vscode.TreeItem(work.title, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `work:${work.id}`;
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

  dispose(): void {
    this.subscription.dispose();
    this.view.dispose();
    this.changed.dispose();
  }
}
