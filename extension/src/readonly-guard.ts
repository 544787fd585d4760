import * as vscode from 'vscode';
import type { Ownership } from '../../contracts/lsp.js';
import type { FleetConfig } from './config.js';
import type { FleetContext } from './fleet-context.js';
import type { OwnershipCache } from './ownership-cache.js';

/** VS Code's session read-only state: kept by the workbench for this window only, written nowhere. */
const SET_READONLY = 'workbench.action.files.setActiveEditorReadonlyInSession';
const RESET_READONLY = 'workbench.action.files.resetActiveEditorReadonlyInSession';
const SET_WRITEABLE = 'workbench.action.files.setActiveEditorWriteableInSession';

const SHOW = 'Show Territory';
const EDIT_ANYWAY = 'Edit Anyway';

export interface ReadonlyChange {
  uri: vscode.Uri;
  readonly: boolean;
  /** The message shown when Fleet made the file read-only: it names Fleet and the holder. */
  message?: string;
}

/**
 * The edit guard in `block` mode: a file in another agent's exclusive territory is read-only in
 * this window's editors while the claim lasts. It uses VS Code's session read-only state (the
 * workbench's "Set Active Editor Read-only in Session"), so no settings file is written, neither
 * the user's nor the workspace's (that one would be a write into a worktree the agents commit
 * from). Those commands act on the active editor, so each editor is brought in line when it
 * becomes active and when its file's ownership changes; a person can only type into the active
 * editor, so that is where it matters. The session state ends with the window.
 */
export class ReadonlyGuard implements vscode.Disposable {
  /** Files this window made read-only, with the claims that made them so. */
  private readonly madeReadonly = new Map<string, string>();
  /** Files the person chose to edit anyway, until those claims change. */
  private readonly exempt = new Map<string, string>();
  private queue: Promise<void> = Promise.resolve();
  private readonly changes = new vscode.EventEmitter<ReadonlyChange>();
  /** After an editor was made read-only or writable again. */
  readonly onDidChange = this.changes.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly ctx: FleetContext,
    private readonly config: FleetConfig,
    private readonly ownership: OwnershipCache,
  ) {
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor(() => void this.update()),
      ownership.onDidChange((uris) => {
        const active = activeFileUri()?.toString();
        if (active !== undefined && uris.some((uri) => uri.toString() === active)) void this.update();
      }),
      config.onDidChange((event) => {
        if (event.affectsConfiguration('fleet.guard')) void this.update();
      }),
    ];
    void this.update();
  }

  /** The files this window holds read-only now (URI strings). */
  get files(): string[] {
    return [...this.madeReadonly.keys()];
  }

  /** Brings the active editor in line with the guard mode and its file's ownership. */
  update(): Promise<void> {
    this.queue = this.queue.then(() => this.align()).catch((error: Error) => this.ctx.log.error(`the block-mode guard failed: ${error.message}`));
    return this.queue;
  }

  private async align(): Promise<void> {
    const uri = activeFileUri();
    if (!uri) return;
    const key = uri.toString();
    const ownership = this.config.guard === 'block' ? (this.ownership.peek(uri) ?? (await this.ownership.lookup(uri))) : null;
    if (activeFileUri()?.toString() !== key) return; // the person moved on; the next update handles that editor
    const claims = ownership?.blocked ? claimKey(ownership) : undefined;
    if (this.exempt.get(key) !== claims) this.exempt.delete(key);
    const wanted = claims !== undefined && !this.exempt.has(key);
    if (wanted && this.madeReadonly.get(key) !== claims) {
      await vscode.commands.executeCommand(SET_READONLY);
      this.madeReadonly.set(key, claims);
      const message = readonlyMessage(ownership!);
      this.ctx.log.info(message);
      this.changes.fire({ uri, readonly: true, message });
      void this.offer(uri, ownership!, message);
    } else if (!wanted && this.madeReadonly.has(key)) {
      await vscode.commands.executeCommand(RESET_READONLY);
      this.madeReadonly.delete(key);
      this.changes.fire({ uri, readonly: false });
    }
  }

  private async offer(uri: vscode.Uri, ownership: Ownership, message: string): Promise<void> {
    const choice = await vscode.window.showWarningMessage(message, SHOW, EDIT_ANYWAY);
    const holder = ownership.holders.find((candidate) => !candidate.mine && candidate.mode === 'exclusive');
    if (choice === SHOW && holder) {
      await vscode.commands.executeCommand('fleet.revealClaim', { claimId: holder.claimId });
    } else if (choice === EDIT_ANYWAY) {
      await vscode.window.showTextDocument(uri);
      this.queue = this.queue.then(async () => {
        const key = uri.toString();
        this.exempt.set(key, this.madeReadonly.get(key) ?? claimKey(ownership));
        this.madeReadonly.delete(key);
        await vscode.commands.executeCommand(SET_WRITEABLE);
        this.ctx.log.warn(`${ownership.path}: writable in this window at the person's request, though ${holderNames(ownership)} holds it`);
        this.changes.fire({ uri, readonly: false });
      });
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changes.dispose();
  }
}

function activeFileUri(): vscode.Uri | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri?.scheme === 'file' ? uri : undefined;
}

/** The claims that make a file read-only: a different set is a different reason to say so. */
function claimKey(ownership: Ownership): string {
  return ownership.holders.filter((holder) => !holder.mine).map((holder) => holder.claimId).sort().join(',');
}

function holderNames(ownership: Ownership): string {
  return [...new Set(ownership.holders.filter((holder) => !holder.mine && holder.mode === 'exclusive').map((holder) => holder.callsign))].join(' and ');
}

export function readonlyMessage(ownership: Ownership): string {
  const names = holderNames(ownership);
  return `Fleet made ${ownership.path} read-only in this window: ${names} holds it exclusively (${ownership.summary.split('\n').join('; ')}). It becomes writable when ${names} releases it.`;
}
