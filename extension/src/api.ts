import type * as vscode from 'vscode';
import type { CodexRepositoryHooks, FleetChanges, FleetViewState, Ownership } from '../../contracts/lsp.js';
import type { TerritoryRevert, TerritoryWarning } from './edit-guard.js';
import type { McpProviderStatus } from './mcp-provider.js';
import type { FleetNotice } from './notifications.js';
import type { ReadonlyChange } from './readonly-guard.js';
import type { StatusBarSnapshot } from './status-description.js';
import type { AttentionEntry } from './attention/attention-entries.js';
import type { DigestModel } from './views/digest-view.js';
import type { TerritoryRow } from './views/territory-view.js';
import type { TreeName, TreeWork } from './views/tree-counter.js';
import type { WorkRow } from './views/work-view.js';

/**
 * What `activate` returns: a read-only window on the extension for other extensions and for the
 * tests that run inside VS Code. It exposes what the person sees, not a second way to act.
 */
export interface FleetApi {
  readonly apiVersion: 1;
  /** The state the views show (control, roster, claims, connection), once the server has sent it. */
  state(): FleetViewState | undefined;
  readonly onDidChangeState: vscode.Event<FleetViewState>;
  /** Who holds a file, as the badges and the guard see it. */
  ownership(uri: vscode.Uri): Promise<Ownership | null>;
  /** Exactly what the Explorer gets from the decoration provider for `uri`. */
  fileDecoration(uri: vscode.Uri): Promise<vscode.FileDecoration | undefined>;
  /** Fired with the URIs whose badge changed, as the Explorer is told. */
  readonly onDidChangeFileDecorations: vscode.Event<vscode.Uri[]>;
  /** What each change from the language server carried (or 'all' when the whole state was replaced). */
  readonly onDidChangeFleet: vscode.Event<FleetChanges | 'all'>;
  /** Each Fleet view's work so far (rows refreshed, full refreshes, items built), counted per change by the tests. */
  treeWork(): Readonly<Record<TreeName, TreeWork>>;
  /** Fired with the view's name each time a Fleet view builds a tree item. */
  readonly onDidBuildTreeItem: vscode.Event<TreeName>;
  /** The Territory view's rows (repositories, holders, their write-sets, forecast conflicts and claims), depth first. */
  territory(): TerritoryRow[];
  /** Fired each time the Territory view asks VS Code to refresh rows. */
  readonly onDidChangeTerritory: vscode.Event<void>;
  statusBar(): StatusBarSnapshot;
  /** The files block mode holds read-only in this window now (URI strings, session read-only). */
  readonlyFiles(): string[];
  /** Each file made read-only (with the message naming Fleet and the holder) or writable again. */
  readonly onDidChangeReadonly: vscode.Event<ReadonlyChange>;
  /** Each out-of-territory warning the edit guard shows. */
  readonly onDidWarn: vscode.Event<TerritoryWarning>;
  /** Each Revert of the edit guard: what it undid, or why it could not. */
  readonly onDidRevert: vscode.Event<TerritoryRevert>;
  /** Each notification shown (digest blockers, stale agents, someone else moving the switch, Codex hooks to trust). */
  readonly onDidNotify: vscode.Event<FleetNotice>;
  /** The fleet's Codex hooks of the workspace's repositories and Codex's trust in them, as the language server last told. */
  codexHooks(): readonly CodexRepositoryHooks[];
  readonly onDidChangeCodexHooks: vscode.Event<readonly CodexRepositoryHooks[]>;
  /** The Work view's rows `depth` levels down (the Train, the status groups, …), as VS Code gets them. */
  workRows(depth: number): WorkRow[];
  /** After each repaint of the Work view. */
  readonly onDidRepaintWork: vscode.Event<void>;
  /** What waits for the operator, as the Needs You view lists it (its length is the badge and the status bar's count). */
  attention(): readonly AttentionEntry[];
  readonly onDidChangeAttention: vscode.Event<readonly AttentionEntry[]>;
  /** What the Digest view shows now (undefined until it has been opened). */
  digest(): DigestModel | undefined;
  readonly onDidChangeDigest: vscode.Event<DigestModel>;
  /** Whether the Digest view is on screen now. */
  digestVisible(): boolean;
  /** The launcher installed at FLEET_HOME/bin/fleet, once written. */
  launcher(): string | undefined;
  /** Whether this VS Code got the fleet MCP server for its agent mode, and its definition. */
  mcp(): McpProviderStatus;
}
