import * as vscode from 'vscode';
import type { FleetContext } from '../fleet-context.js';

/** How long a command run while the window is still connecting waits for the plane. */
const CONNECT_WAIT_MS = 20_000;
const CONNECT = 'Connect to the Plane';
const SHOW_LOG = 'Show Log';

/**
 * Fleet's commands stay in the palette before the plane is connected (hidden, "Fleet: Pause" +
 * Enter ran VS Code's own "Connection: Pause socket writing"). Run then, a command that needs the
 * plane waits for a connection under way, with a progress notification the person can cancel, and
 * otherwise says plainly that the window is not connected and offers to connect. Resolves true
 * once the plane is connected.
 */
export async function planeRequired(ctx: FleetContext, title: string): Promise<boolean> {
  if (ctx.connected) return true;
  const status = ctx.state?.connection.status ?? 'connecting';
  if (status === 'connecting' || status === 'reconnecting') {
    const connected = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `${title}: waiting for the coordination plane to connect…`, cancellable: true },
      (_progress, token) => connection(ctx, token),
    );
    if (connected) return true;
  }
  const why = ctx.state?.connection.message ?? `the plane did not connect within ${CONNECT_WAIT_MS / 1000} s`;
  const choice = await vscode.window.showWarningMessage(`${title} did nothing: this window is not connected to the coordination plane (${why}).`, CONNECT, SHOW_LOG);
  if (choice === CONNECT) await vscode.commands.executeCommand('fleet.startPlane');
  else if (choice === SHOW_LOG) ctx.log.show();
  return false;
}

/** Resolves true once connected, false when cancelled, timed out, or the connection failed. */
function connection(ctx: FleetContext, token: vscode.CancellationToken): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (connected: boolean) => {
      clearTimeout(timer);
      listening.dispose();
      cancelling.dispose();
      resolve(connected);
    };
    const timer = setTimeout(() => finish(false), CONNECT_WAIT_MS);
    const listening = ctx.onDidChangeState((state) => {
      if (state.connection.status === 'connected') finish(true);
      else if (state.connection.status === 'failed' || state.connection.status === 'stopped') finish(false);
    });
    const cancelling = token.onCancellationRequested(() => finish(false));
  });
}

/** Registers a command that needs the plane: run unconnected, it waits or says why it did nothing. */
export function registerPlaneCommand(ctx: FleetContext, command: string, title: string, run: (arg?: unknown) => Promise<void>): vscode.Disposable {
  return vscode.commands.registerCommand(command, async (arg?: unknown) => {
    if (await planeRequired(ctx, title)) await run(arg);
  });
}
