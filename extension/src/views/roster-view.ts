import * as vscode from 'vscode';
import type { Agent, AgentStatus } from '../../../contracts/index.js';
import type { FleetContext } from '../fleet-context.js';
import { since } from './relative-time.js';

const STATUS_ICON: Record<AgentStatus, vscode.ThemeIcon> = {
  active: new vscode.ThemeIcon('pulse', new vscode.ThemeColor('charts.green')),
  idle: new vscode.ThemeIcon('circle-outline'),
  blocked: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
  unknown: new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
  left: new vscode.ThemeIcon('sign-out'),
  expired: new vscode.ThemeIcon('history'),
  stalled: new vscode.ThemeIcon('watch', new vscode.ThemeColor('list.warningForeground')),
};

const STATUS_NOTE: Partial<Record<AgentStatus, string>> = {
  unknown: ' (stale: no heartbeat within the agent TTL)',
  stalled: ' (silent for 3 × the agent TTL, kept live by its running process)',
};

const TICK_MS = 15_000;

/**
 * The roster: each agent's callsign, runtime, role, status, time since its last heartbeat, task
 * and claim count. Stale agents (no heartbeat within the TTL: status unknown) get the warning
 * icon and count in the view's badge. While visible, the "ago" times tick.
 */
export class RosterView implements vscode.TreeDataProvider<Agent>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<Agent>;
  private readonly subscriptions: vscode.Disposable[];
  private readonly ticker: NodeJS.Timeout;

  constructor(private readonly ctx: FleetContext) {
    this.view = vscode.window.createTreeView('fleet.roster', { treeDataProvider: this });
    this.subscriptions = [this.view, ctx.onDidChangeState(() => this.refresh())];
    this.ticker = setInterval(() => this.view.visible && this.changed.fire(), TICK_MS);
    this.refresh();
  }

  private refresh(): void {
    const state = this.ctx.state;
    const stale = state?.agents.filter((agent) => agent.status === 'unknown' || agent.status === 'stalled').length ?? 0;
    this.view.badge = stale > 0 ? { value: stale, tooltip: `${stale} agent${stale === 1 ? '' : 's'} not heartbeating` } : undefined;
    const control = state?.control;
    this.view.message =
      control && control.state !== 'run'
        ? `Fleet ${control.state === 'drain' ? 'draining' : control.state === 'pause' ? 'paused' : 'stopped'} by ${control.setBy}${control.reason ? `: ${control.reason}` : ''}`
        : undefined;
    this.changed.fire();
  }

  getChildren(element?: Agent): Agent[] {
    if (element) return [];
    return [...(this.ctx.state?.agents ?? [])].sort((a, b) => a.callsign.localeCompare(b.callsign));
  }

  getTreeItem(agent: Agent): vscode.TreeItem {
    const item = new vscode.TreeItem(agent.callsign, vscode.TreeItemCollapsibleState.None);
    item.id = agent.agentId;
    const claims = `${agent.claimCount} claim${agent.claimCount === 1 ? '' : 's'}`;
    item.description = [agent.status, agent.runtime, agent.role, since(agent.lastSeenAt), claims, agent.task].filter(Boolean).join(' · ');
    item.iconPath = STATUS_ICON[agent.status];
    item.contextValue = `agent.${agent.status}`;
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**${agent.callsign}** — ${agent.status}${STATUS_NOTE[agent.status] ?? ''}\n\n`);
    tooltip.appendMarkdown(`Runtime ${agent.runtime}, role ${agent.role}, tier ${agent.tier}\n\n`);
    tooltip.appendMarkdown(`Last heartbeat ${since(agent.lastSeenAt)}; joined ${new Date(agent.joinedAt).toLocaleString()}\n\n`);
    // Task and note are the agents' own words: shown as text, never as markdown.
    if (agent.task) tooltip.appendText(`Task: ${agent.task}\n\n`);
    if (agent.note) tooltip.appendText(`Note: ${agent.note}\n\n`);
    tooltip.appendMarkdown(`${claims}${agent.worktree ? ` · worktree ${agent.worktree}` : ''}`);
    item.tooltip = tooltip;
    return item;
  }

  dispose(): void {
    clearInterval(this.ticker);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}
