import * as vscode from 'vscode';
import type { AgentStatus } from '../../../contracts/index.js';
import type { FleetChanges, ViewAgent } from '../../../contracts/lsp.js';
import type { FleetConfig } from '../config.js';
import type { FleetContext } from '../fleet-context.js';
import { since } from './relative-time.js';
import { claimCount, rosterDescription } from './roster-description.js';
import type { TreeCounter } from './tree-counter.js';

const STATUS_ICON: Record<AgentStatus, [icon: string, color?: string]> = {
  active: ['pulse', 'charts.green'],
  idle: ['circle-outline'],
  blocked: ['error', 'list.errorForeground'],
  unknown: ['warning', 'list.warningForeground'],
  left: ['sign-out'],
  expired: ['history'],
  stalled: ['watch', 'list.warningForeground'],
};
const STATUS_NOTE: Partial<Record<AgentStatus, string>> = {
  unknown: ' (stale: no heartbeat within the agent TTL)',
  stalled: ' (silent for 3 × the agent TTL, kept live by its running process)',
};
const TICK_MS = 15_000;

/** A roster row: the same object for as long as the agent is on the roster, so it updates in place. */
interface AgentNode {
  readonly agentId: string;
}

/**
 * The roster: each agent's callsign, its mark (the Explorer badge), what it is doing now, and its
 * claim count; runtime, role and times in the tooltip. Stale agents get the warning icon and are
 * counted in the view's header. Each change refreshes only the rows of the agents it names (the whole list
 * only when agents join or leave); while visible, the rows tick for their "ago" times.
 */
export class RosterView implements vscode.TreeDataProvider<AgentNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<AgentNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<AgentNode>;
  private readonly subscriptions: vscode.Disposable[];
  private readonly ticker: NodeJS.Timeout;
  private readonly nodes = new Map<string, AgentNode>();
  /** Each row's words as last shown (status and description). */
  private readonly shown = new Map<string, string>();

  constructor(
    private readonly ctx: FleetContext,
    private readonly config: FleetConfig,
    private readonly counter: TreeCounter,
  ) {
    this.view = vscode.window.createTreeView('fleet.roster', { treeDataProvider: this });
    this.subscriptions = [
      this.view,
      ctx.onDidChangeFleet((changes) => this.update(changes)),
      config.onDidChange((event) => event.affectsConfiguration('fleet.agentColors') && this.refresh(undefined)),
    ];
    this.ticker = setInterval(() => this.view.visible && this.nodes.size > 0 && this.refresh([...this.nodes.values()]), TICK_MS);
    this.update('all');
  }

  private update(changes: FleetChanges | 'all'): void {
    this.describeFleet();
    if (changes === 'all') {
      this.nodes.clear();
      this.shown.clear();
      for (const agent of this.ctx.state?.agents ?? []) {
        this.nodes.set(agent.agentId, { agentId: agent.agentId });
        this.changedWords(agent);
      }
      return this.refresh(undefined);
    }
    const joined = changes.agents.filter((agent) => !this.nodes.has(agent.agentId));
    const left = changes.removedAgents.filter((agentId) => this.nodes.has(agentId));
    for (const agent of joined) this.nodes.set(agent.agentId, { agentId: agent.agentId });
    for (const agentId of left) {
      this.nodes.delete(agentId);
      this.shown.delete(agentId);
    }
    for (const agent of joined) this.changedWords(agent);
    // Someone joined or left: the list itself changed. Otherwise only the rows named.
    if (joined.length > 0 || left.length > 0) return this.refresh(undefined);
    // A heartbeat alone moves only "ago" times, which tick: rows whose words changed are refreshed.
    const rows = changes.agents.flatMap((agent) => (this.changedWords(agent) ? (this.nodes.get(agent.agentId) ?? []) : []));
    if (rows.length > 0) this.refresh(rows);
  }

  private changedWords(agent: ViewAgent): boolean {
    const words = `${agent.status}|${rosterDescription(agent)}`;
    if (this.shown.get(agent.agentId) === words) return false;
    this.shown.set(agent.agentId, words);
    return true;
  }

  private describeFleet(): void {
    const state = this.ctx.state;
    const stale = state?.agents.filter((agent) => agent.status === 'unknown' || agent.status === 'stalled').length ?? 0;
    // In the view's header, not a badge: the Fleet icon's badge is what needs the operator (Needs You) alone.
    this.view.description = stale > 0 ? `${stale} not heartbeating` : undefined;
    const control = state?.control;
    this.view.message =
      state?.store?.health === 'unavailable'
        ? 'Store unreachable: no claim, release or other change is taken until this plane reaches its NATS cluster again (it recovers by itself).'
        : control && control.state !== 'run'
        ? `Fleet ${control.state === 'drain' ? 'draining' : control.state === 'pause' ? 'paused' : 'stopped'} by ${control.setBy}${control.reason ? `: ${control.reason}` : ''}`
        : undefined;
  }

  /** Every refresh goes through here, so the counter sees what each change cost. */
  private refresh(rows: AgentNode[] | undefined): void {
    this.counter.refreshed('roster', rows);
    this.changed.fire(rows);
  }

  getChildren(element?: AgentNode): AgentNode[] {
    if (element) return [];
    const callsign = (node: AgentNode) => this.ctx.records?.agent(node.agentId)?.callsign ?? '';
    return [...this.nodes.values()].sort((a, b) => callsign(a).localeCompare(callsign(b)));
  }

  getTreeItem(node: AgentNode): vscode.TreeItem {
    this.counter.count('roster');
    const agent = this.ctx.records?.agent(node.agentId);
    if (!agent) return new vscode.TreeItem('(gone)');
    const item = new vscode.TreeItem(agent.callsign, vscode.TreeItemCollapsibleState.None);
    item.id = agent.agentId;
    item.description = rosterDescription(agent);
    const [icon, color] = STATUS_ICON[agent.status];
    const own = this.config.agentColor(agent.callsign);
    item.iconPath = new vscode.ThemeIcon(icon, own || color ? new vscode.ThemeColor(own ?? color!) : undefined);
    item.contextValue = `agent.${agent.status}`;
    item.tooltip = rosterTooltip(agent);
    return item;
  }

  dispose(): void {
    clearInterval(this.ticker);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}

function rosterTooltip(agent: ViewAgent): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString();
  tooltip.appendMarkdown(`**${agent.callsign}** (badge ${agent.mark}) — ${agent.status}${STATUS_NOTE[agent.status] ?? ''}\n\n`);
  // Task and note are the agents' own words: shown as text, never as markdown.
  if (agent.task) tooltip.appendText(`${agent.status === 'active' ? 'Task' : 'Last task'}: ${agent.task}\n\n`);
  if (agent.note) tooltip.appendText(`Note: ${agent.note}\n\n`);
  tooltip.appendMarkdown(`Runtime ${agent.runtime}, role ${agent.role}, tier ${agent.tier}\n\n`);
  tooltip.appendMarkdown(`Last heartbeat ${since(agent.lastSeenAt)}; joined ${new Date(agent.joinedAt).toLocaleString()}\n\n`);
  tooltip.appendText(`${claimCount(agent)}${agent.worktree ? ` · worktree ${agent.worktree}` : ''}`);
  return tooltip;
}
