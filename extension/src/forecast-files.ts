import * as vscode from 'vscode';
import type { ForecastConflict } from '../../contracts/index.js';
import type { LspNotificationParams } from '../../contracts/lsp.js';
import type { FleetContext } from './fleet-context.js';

/**
 * The files of this workspace in a forecast merge conflict (two live branches, or one and the
 * target, would conflict there if merged today), as the language server last listed them. Fires
 * exactly the files whose conflicts changed, so their Explorer mark follows the forecast.
 */
export class ForecastFiles implements vscode.Disposable {
  private byFile = new Map<string, ForecastConflict[]>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri[]>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(ctx: FleetContext) {
    this.subscription = ctx.onDidChangeForecast((forecast) => this.replace(forecast));
  }

  at(uri: vscode.Uri): readonly ForecastConflict[] {
    return this.byFile.get(uri.toString()) ?? [];
  }

  private replace({ conflicts }: LspNotificationParams<'fleet/didChangeForecast'>): void {
    const previous = this.byFile;
    this.byFile = new Map();
    for (const { conflict, files } of conflicts) {
      for (const file of files) {
        const key = vscode.Uri.file(file).toString();
        this.byFile.set(key, [...(this.byFile.get(key) ?? []), conflict]);
      }
    }
    const sides = (list: readonly ForecastConflict[] | undefined) => JSON.stringify(list ?? []);
    const touched = [...new Set([...previous.keys(), ...this.byFile.keys()])].filter((key) => sides(previous.get(key)) !== sides(this.byFile.get(key)));
    if (touched.length > 0) this.changed.fire(touched.map((key) => vscode.Uri.parse(key)));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
