import * as vscode from 'vscode';
import type { WorkItem, WorkStatus } from '../../../contracts/index.js';
import type { FleetContext } from '../fleet-context.js';
import { since } from './relative-time.js';
import { workDetails, type WorkDetail } from './work-details.js';

interface StatusNode {
  kind: 'status';
  status: WorkStatus;
  items: WorkItem[];
}

interface ItemNode {
  kind: 'item';
  item: WorkItem;
}

interface DetailNode {
  kind: 'detail';
  id: string;
  detail: WorkDetail;
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
 * the person reads who has what, what waits for review or a decision, and what is blocked.
 */
export class WorkView implements vscode.TreeDataProvider<WorkNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<WorkNode>;
  private readonly subscription: vscode.Disposable;
  private groups: StatusNode[] = [];

  constructor(private readonly ctx: FleetContext) {
    this.view = vscode.window.createTreeView('fleet.work', { treeDataProvider: this, showCollapseAll: true });
    this.subscription = ctx.onDidChangeState(() => this.rebuild());
    this.rebuild();
  }

  private rebuild(): void {
    const work = this.ctx.state?.work ?? [];
    this.groups = ORDER.map(({ status }) => ({ kind: 'status' as const, status, items: work.filter((item) => item.status === status) })).filter((group) => group.items.length > 0);
    const attention = work.filter((item) => item.status === 'blocked' || item.status === 'escalated').length;
    this.view.badge = attention > 0 ? { value: attention, tooltip: `${attention} work item(s) blocked or escalated` } : undefined;
    this.changed.fire();
  }

  getChildren(element?: WorkNode): WorkNode[] {
    if (!element) return this.groups;
    if (element.kind === 'status') return element.items.map((item) => ({ kind: 'item' as const, item }));
    const [parent, details] = element.kind === 'item' ? [`work:${element.item.id}`, workDetails(element.item)] : [element.id, element.detail.children ?? []];
    return details.map((detail, index) => ({ kind: 'detail' as const, id: `${parent}/${index}`, detail }));
  }

  getTreeItem(node: WorkNode): vscode.TreeItem {
    if (node.kind === 'status') {
      const look = ORDER.find((entry) => entry.status === node.status)!;
      const collapsed = node.status === 'done' || node.status === 'rolled_back';
      const item = new vscode.TreeItem(look.label, collapsed ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
      item.id = `status:${node.status}`;
      item.description = String(node.items.length);
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
    const { item: work } = node;
    // Expanded: its plan, its rounds and what it waits for.
    const item = new vscode.TreeItem(work.title, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `work:${work.id}`;
    item.description = [work.kind, work.assignee, work.blockedBy.length > 0 ? `waiting on ${work.blockedBy.join(', ')}` : undefined, `updated ${since(work.updatedAt)}`].filter(Boolean).join(' · ');
    item.contextValue = `work.${work.status}`;
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(`${work.title} (${work.id}) — ${work.status}${work.statusReason ? `: ${work.statusReason}` : ''}\n\n`);
    if (work.assignee) tooltip.appendText(`Assignee: ${work.assignee}${work.verifier ? `, verifier: ${work.verifier}` : ''}\n\n`);
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
