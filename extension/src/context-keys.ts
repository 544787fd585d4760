import * as vscode from 'vscode';
import type { FleetViewState } from '../../contracts/lsp.js';
import type { FleetConfig } from './config.js';
import type { FleetContext } from './fleet-context.js';

/** The context keys the manifest's `when` clauses read. */
export function trackContextKeys(ctx: FleetContext, config: FleetConfig): vscode.Disposable {
  const last = new Map<string, unknown>();
  const set = (key: string, value: unknown) => {
    if (last.get(key) === value) return;
    last.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  };
  const fromState = (state: FleetViewState | undefined) => {
    set('fleet.connection', state?.connection.status ?? 'connecting');
    set('fleet.controlState', state?.control?.state ?? 'unknown');
    set('fleet.agentCount', state?.agents.length ?? 0);
    set('fleet.claimCount', state?.claims.length ?? 0);
    set('fleet.workCount', state?.work.length ?? 0);
    set('fleet.joined', state?.operator !== null && state?.operator !== undefined);
  };
  fromState(ctx.state);
  set('fleet.guard', config.guard);
  return vscode.Disposable.from(
    ctx.onDidChangeState(fromState),
    config.onDidChange(() => set('fleet.guard', config.guard)),
  );
}
