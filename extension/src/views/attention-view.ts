import * as vscode from 'vscode';
import { AttentionEntries, type AttentionDetail, type AttentionEntry, type AttentionKind } from '../attention/attention-entries.js';
import type { FleetContext } from '../fleet-context.js';
import { since } from './relative-time.js';

/** A row of the view: an entry, or one line of its context under it. */
export type AttentionNode = { kind: 'entry'; entry: AttentionEntry } | { kind: 'detail'; id: string; detail: AttentionDetail };

const LOOK: Record<AttentionKind, { icon: string; color?: string; what: string }> = {
  question: { icon: 'question', color: 'list.errorForeground', what: 'Escalated question: answer it' },
  escalated: { icon: 'report', color: 'list.errorForeground', what: 'Escalated: decide it' },
  landing: { icon: 'git-pull-request-closed', color: 'list.errorForeground', what: 'The train could not land it: read why' },
  decision: { icon: 'pass', color: 'charts.green', what: 'Verified: accept it or send it back' },
  clarification: { icon: 'comment-discussion', color: 'list.warningForeground', what: 'Asked of you: answer it' },
  waiting: { icon: 'bell-dot', color: 'list.warningForeground', what: 'Its runtime waits for a person' },
};

/**
 * Needs You (fleet.attention): everything that waits for the operator in one list, with its
 * context under each row and the actions on it (accept, send back, decide, answer, release), and
 * the count as the view's badge (shown on the Fleet icon too) and in the status bar. Kept from the
 * state's changes, so a big queue costs only the items that changed.
 */
export class AttentionView implements vscode.TreeDataProvider<AttentionNode>, vscode.Disposable {
  private readonly entries = new AttentionEntries();
  private readonly treeChanged = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.treeChanged.event;
  private readonly changed = new vscode.EventEmitter<readonly AttentionEntry[]>();
  /** Each time what needs the operator changed. */
  readonly onDidChange = this.changed.event;
  private readonly view: vscode.TreeView<AttentionNode>;
  private readonly statusItem = vscode.window.createStatusBarItem('fleet.attention', vscode.StatusBarAlignment.Left, 49);
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly ctx: FleetContext) {
    this.view = vscode.window.createTreeView('fleet.attention', { treeDataProvider: this });
    this.statusItem.name = 'Fleet: Needs You';
    this.statusItem.command = { command: 'fleet.attention.focus', title: 'Show what needs you' };
    // 'all' comes with every whole state (start-up, reconnect, the plane gone, the operator joined).
    this.subscriptions = [
      ctx.onDidChangeFleet((changes) => {
        if (changes === 'all') this.reload();
        else if (this.entries.apply(changes)) this.show();
      }),
    ];
    this.reload();
  }

  /** What the view lists now, in its order. */
  get list(): readonly AttentionEntry[] {
    return this.entries.list;
  }

  entry(key: string): AttentionEntry | undefined {
    return this.entries.list.find((entry) => entry.key === key);
  }

  private reload(): void {
    this.entries.replace(this.ctx.connected ? this.ctx.state : undefined);
    this.show();
  }

  private show(): void {
    const count = this.entries.count;
    const list = this.entries.list;
    const summary = summarize(list);
    this.view.badge = count > 0 ? { value: count, tooltip: `${count} thing(s) need you: ${summary}` } : undefined;
    this.view.description = count > 0 ? summary : undefined;
    this.statusItem.text = `$(bell-dot) ${count} need you`;
    this.statusItem.tooltip = `Fleet: ${count} thing(s) need you — ${summary}. Click to see them.`;
    if (count > 0) this.statusItem.show();
    else this.statusItem.hide();
    this.treeChanged.fire(undefined);
    this.changed.fire(list);
  }

  getChildren(node?: AttentionNode): AttentionNode[] {
    if (!node) return this.entries.list.map((entry) => ({ kind: 'entry', entry }));
    if (node.kind === 'detail') return [];
    return node.entry.details.map((detail, index) => ({ kind: 'detail', id: `${node.entry.key}/${index}`, detail }));
  }

  getTreeItem(node: AttentionNode): vscode.TreeItem {
    if (node.kind === 'detail') {
      const item = new vscode.TreeItem(node.detail.label, vscode.TreeItemCollapsibleState.None);
      item.id = `attention:${node.id}`;
      item.description = node.detail.description;
      item.tooltip = node.detail.description;
      return item;
    }
    const { entry } = node;
    const look = LOOK[entry.kind];
    const item = new vscode.TreeItem(entry.label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `attention:${entry.key}`;
    item.description = `${entry.description} · ${since(entry.since)}`;
    item.iconPath = new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
    // The actions shown on the row follow its kind (package.json, view/item/context).
    item.contextValue = `attention.${entry.kind}`;
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(`${look.what}\n\n${entry.label}\n\n${entry.description}\n\n`);
    for (const detail of entry.details) tooltip.appendText(`${detail.label}: ${detail.description ?? ''}\n\n`);
    item.tooltip = tooltip;
    return item;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.view.dispose();
    this.statusItem.dispose();
    this.treeChanged.dispose();
    this.changed.dispose();
  }
}

/** "2 questions, 1 to accept, 1 agent waiting": the count by kind, in the list's order. */
export function summarize(list: readonly AttentionEntry[]): string {
  const words: Record<AttentionKind, [string, string]> = {
    question: ['question', 'questions'],
    escalated: ['escalation', 'escalations'],
    landing: ['could not land', 'could not land'],
    decision: ['to accept', 'to accept'],
    clarification: ['asked of you', 'asked of you'],
    waiting: ['agent waiting', 'agents waiting'],
  };
  const counts = new Map<AttentionKind, number>();
  for (const entry of list) counts.set(entry.kind, (counts.get(entry.kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${words[kind][n === 1 ? 0 : 1]}`).join(', ') || 'nothing';
}
