import * as vscode from 'vscode';
import type { FleetViewState } from '../../contracts/lsp.js';
import type { FleetContext } from './fleet-context.js';

const CONTROL_LOOK = {
  run: { icon: '$(broadcast)', word: 'running' },
  drain: { icon: '$(arrow-circle-down)', word: 'draining' },
  pause: { icon: '$(debug-pause)', word: 'paused' },
  stop: { icon: '$(debug-stop)', word: 'stopped' },
} as const;

export interface StatusBarSnapshot {
  text: string;
  tooltip: string;
  warning: boolean;
}

/**
 * The fleet at a glance: control state and agent count, in the warning colour when the fleet is
 * not running, when agents are stale, or when no plane is connected. A click opens the sidebar.
 */
export class FleetStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('fleet.status', vscode.StatusBarAlignment.Left, 50);
  private readonly subscription: vscode.Disposable;
  private current: StatusBarSnapshot = { text: '', tooltip: '', warning: false };

  constructor(ctx: FleetContext) {
    this.item.name = 'Fleet Coordination';
    this.item.command = { command: 'workbench.view.extension.fleet', title: 'Show the Fleet sidebar' };
    this.subscription = ctx.onDidChangeState((state) => this.render(state));
    this.render(ctx.state);
    this.item.show();
  }

  get snapshot(): StatusBarSnapshot {
    return this.current;
  }

  private render(state: FleetViewState | undefined): void {
    this.current = describe(state);
    this.item.text = this.current.text;
    this.item.tooltip = new vscode.MarkdownString(this.current.tooltip, true);
    this.item.backgroundColor = this.current.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

/** A drain is complete once no agent holds work in progress: the fleet can be stopped without losing any. */
export function drainComplete(state: FleetViewState | undefined): boolean {
  return state?.connection.status === 'connected' && state.control?.state === 'drain' && !state.work.some((item) => item.status === 'in_progress');
}

export function describe(state: FleetViewState | undefined): StatusBarSnapshot {
  const status = state?.connection.status ?? 'connecting';
  if (!state || status !== 'connected' || !state.control) {
    const text = status === 'stopped' ? '$(debug-disconnect) Fleet: no plane' : status === 'failed' ? '$(error) Fleet: plane unreachable' : '$(sync~spin) Fleet: connecting';
    return { text, tooltip: state?.connection.message ?? 'Connecting to the coordination plane…', warning: status === 'stopped' || status === 'failed' };
  }
  const drained = drainComplete(state);
  const look = drained ? { icon: '$(pass)', word: 'drained' } : CONTROL_LOOK[state.control.state];
  const agents = state.agents.length;
  const stale = state.agents.filter((agent) => agent.status === 'unknown').length;
  const text = `${look.icon} Fleet: ${look.word} · ${agents} agent${agents === 1 ? '' : 's'}${stale > 0 ? ` · ${stale} stale` : ''}`;
  const reason = state.control.reason ? ` — “${state.control.reason}”` : '';
  const tooltip = [
    `**Fleet ${look.word}**${reason}`,
    '',
    `Set by ${state.control.setBy} at ${new Date(state.control.setAt).toLocaleTimeString()}.`,
    '',
    ...(state.control.state === 'drain' ? [drained ? 'Drain complete: no agent holds work in progress; the fleet can be stopped or paused without losing work.' : `Draining: ${state.work.filter((item) => item.status === 'in_progress').length} work item(s) still in progress.`, ''] : []),
    `${agents} agent${agents === 1 ? '' : 's'} on the roster${stale > 0 ? `, ${stale} not heartbeating` : ''}; ${state.claims.length} live claim${state.claims.length === 1 ? '' : 's'}.`,
    '',
    `Plane pid ${state.connection.plane?.pid ?? '?'} on port ${state.connection.plane?.port ?? '?'}${state.connection.plane?.socket ? ` and socket ${codeSpan(state.connection.plane.socket)}` : ''} (FLEET_HOME ${codeSpan(state.connection.home)}).`,
  ].join('\n');
  return { text, tooltip, warning: state.control.state !== 'run' || stale > 0 };
}

/** A path shown verbatim in the Markdown tooltip: `_`, `*` or `$(…)` in it would otherwise render as markup. */
function codeSpan(text: string): string {
  const longestTickRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestTickRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
