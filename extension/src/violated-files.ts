import * as vscode from 'vscode';
import type { Violation } from '../../contracts/index.js';
import type { WorkspaceViolation } from '../../contracts/lsp.js';
import type { FleetContext } from './fleet-context.js';

/**
 * The files of this workspace with an unacknowledged territory violation (a write another agent's
 * exclusive claim did not allow), as the language server last listed them. Fires exactly the files
 * that gained or lost one, so their Explorer mark changes until the operator acknowledges.
 */
export class ViolatedFiles implements vscode.Disposable {
  private byFile = new Map<string, Violation[]>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri[]>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(ctx: FleetContext) {
    this.subscription = ctx.onDidChangeViolations((violations) => this.replace(violations));
  }

  /** Newest first. */
  at(uri: vscode.Uri): readonly Violation[] {
    return this.byFile.get(uri.toString()) ?? [];
  }

  private replace(violations: readonly WorkspaceViolation[]): void {
    const previous = this.byFile;
    this.byFile = new Map();
    for (const { violation, file } of violations) {
      const key = vscode.Uri.file(file).toString();
      this.byFile.set(key, [...(this.byFile.get(key) ?? []), violation].sort((a, b) => b.at.localeCompare(a.at)));
    }
    const touched = [...new Set([...previous.keys(), ...this.byFile.keys()])].filter((key) => idsOf(previous.get(key)) !== idsOf(this.byFile.get(key)));
    if (touched.length > 0) this.changed.fire(touched.map((key) => vscode.Uri.parse(key)));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function idsOf(violations: readonly Violation[] | undefined): string {
  return (violations ?? []).map((violation) => violation.id).join(',');
}
