import * as vscode from 'vscode';
import type { FleetContext } from './fleet-context.js';
import { describe, type StatusBarSnapshot } from './status-description.js';

/** The fleet at a glance (see `describe`); a click opens the sidebar. */
export class FleetStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('fleet.status', vscode.StatusBarAlignment.Left, 50);
  private readonly subscriptions: vscode.Disposable[];
  private current: StatusBarSnapshot = { text: '', tooltip: '', warning: false, error: false };

  constructor(private readonly ctx: FleetContext) {
    this.item.name = 'Fleet Coordination';
    this.item.command = { command: 'workbench.view.extension.fleet', title: 'Show the Fleet sidebar' };
    this.subscriptions = [ctx.onDidChangeState(() => this.render()), ctx.onDidChangeCodexHooks(() => this.render())];
    this.render();
    this.item.show();
  }

  get snapshot(): StatusBarSnapshot {
    return this.current;
  }

  private render(): void {
    this.current = describe(this.ctx.state, this.ctx.codexHooks);
    this.item.text = this.current.text;
    this.item.tooltip = new vscode.MarkdownString(this.current.tooltip, true);
    this.item.backgroundColor = this.current.error ? new vscode.ThemeColor('statusBarItem.errorBackground') : this.current.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }
}
