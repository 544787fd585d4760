import * as vscode from 'vscode';
import type { FleetContext } from '../fleet-context.js';

/**
 * Commands are invoked from the palette (no argument), from menus (a URI or a tree element) and by
 * other extensions or tests (an options object). These read an options object safely.
 */
export function option(arg: unknown, key: string): unknown {
  return typeof arg === 'object' && arg !== null && !(arg instanceof vscode.Uri) ? (arg as Record<string, unknown>)[key] : undefined;
}

export function flag(arg: unknown, key: string): boolean {
  return option(arg, key) === true;
}

export function text(arg: unknown, key: string): string | undefined {
  const value = option(arg, key);
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function showCommandError(ctx: FleetContext, what: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  ctx.log.error(`${what}: ${message}`);
  void vscode.window.showErrorMessage(`${what}: ${message}`, 'Show Log').then((choice) => choice && ctx.log.show());
}
