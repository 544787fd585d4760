import * as vscode from 'vscode';
import type { LspNotificationParams, WorkspaceForecastConflict, WorkspaceWriteSet } from '../../../contracts/lsp.js';

/** What one agent's branch changed against the target, and the merge conflicts forecast for it (DESIGN §14). */
export interface BranchWork {
  readonly writeSet: WorkspaceWriteSet;
  readonly conflicts: readonly WorkspaceForecastConflict[];
}

/** At most this many paths in a row's tooltip. */
const PATHS_IN_TOOLTIP = 20;
/** At most this many paths in a conflict row's description. */
const PATHS_IN_DESCRIPTION = 3;

/**
 * The forecast by Territory holder (repository scope and agent): replaced whole on each
 * fleet/didChangeForecast, it says which holders' branch work changed, so only their rows refresh.
 */
export class BranchWorkByHolder {
  private byHolder = new Map<string, BranchWork>();
  private shown = new Map<string, string>();

  /** The holder keys (see `key`) whose branch work changed. */
  replace({ writeSets, conflicts }: LspNotificationParams<'fleet/didChangeForecast'>, agentIdOf: (callsign: string) => string | undefined): Set<string> {
    const next = new Map<string, BranchWork>();
    for (const writeSet of writeSets) {
      const agentId = agentIdOf(writeSet.callsign);
      if (writeSet.scope === undefined || agentId === undefined) continue;
      const own = conflicts.flatMap((entry) => (entry.conflict.callsign === writeSet.callsign ? [entry] : entry.conflict.otherCallsign === writeSet.callsign ? [seenFrom(entry, writeSet)] : []));
      next.set(holderKey(writeSet.scope, agentId), { writeSet, conflicts: own });
    }
    const nextShown = new Map([...next].map(([key, work]) => [key, JSON.stringify(work)]));
    const changed = new Set([...this.shown.keys(), ...nextShown.keys()].filter((key) => this.shown.get(key) !== nextShown.get(key)));
    this.byHolder = next;
    this.shown = nextShown;
    return changed;
  }

  of(key: string): BranchWork | undefined {
    return this.byHolder.get(key);
  }

  keys(): IterableIterator<string> {
    return this.byHolder.keys();
  }
}

export function holderKey(scope: string, agentId: string): string {
  return `${scope}\0${agentId}`;
}

export function splitHolderKey(key: string): { scope: string; agentId: string } {
  const at = key.lastIndexOf('\0');
  return { scope: key.slice(0, at), agentId: key.slice(at + 1) };
}

/** "branch → target, N paths changed": the agent's write-set in one row, its paths in the tooltip. */
export function writeSetItem(writeSet: WorkspaceWriteSet, id: string): vscode.TreeItem {
  const target = shortRef(writeSet.target);
  const item = new vscode.TreeItem(`${writeSet.branch ? shortRef(writeSet.branch) : `detached ${writeSet.head.slice(0, 8)}`} → ${target}`, vscode.TreeItemCollapsibleState.None);
  item.id = id;
  const count = `${writeSet.pathCount.toLocaleString('en-US')}${writeSet.truncated ? '+' : ''} path${writeSet.pathCount === 1 ? '' : 's'} changed`;
  const described = writeSet.truncated ? `${count} (truncated)` : count;
  // Not compared, no ⇄ can show for it: said on the row, why in the tooltip.
  const compared = writeSet.notCompared === undefined ? described : `${described}, not compared`;
  const waiting = writeSet.awaitingLanding;
  item.description = waiting === undefined ? compared : `${writeSet.callsign} (${waiting.agent}) — ${waiting.items.join(', ')} awaiting landing · ${compared}`;
  item.tooltip = [
    `${writeSet.callsign}'s write-set: what its work changed against ${target}, committed and uncommitted (worktree ${writeSet.worktree})`,
    ...(waiting === undefined ? [] : [`${writeSet.callsign} is gone (${waiting.agent}), but ${waiting.items.join(', ')} it built here await landing: still forecast against other branches until they land`]),
    ...(writeSet.notCompared === undefined ? [] : [`Not compared with other branches, so no conflict can be forecast for it: ${writeSet.notCompared}`]),
    ...bounded(writeSet.paths, writeSet.pathCount),
  ].join('\n');
  item.iconPath = writeSet.notCompared === undefined ? new vscode.ThemeIcon('git-branch') : new vscode.ThemeIcon('git-branch', new vscode.ThemeColor('list.warningForeground'));
  item.contextValue = 'writeSet';
  return item;
}

/** "⇄ with BOLT": a merge conflict forecast between this agent's work and another branch, on which paths. */
export function conflictItem({ conflict, files }: WorkspaceForecastConflict, id: string): vscode.TreeItem {
  const other = conflict.otherCallsign ?? shortRef(conflict.otherBranch);
  const item = new vscode.TreeItem(`⇄ with ${other}`, vscode.TreeItemCollapsibleState.None);
  item.id = id;
  const shown = conflict.paths.slice(0, PATHS_IN_DESCRIPTION).join(', ');
  const hidden = conflict.paths.length - PATHS_IN_DESCRIPTION;
  item.description = hidden > 0 || conflict.truncated ? `${shown} +${Math.max(hidden, 0)}${conflict.truncated ? '+' : ''}` : shown;
  const side = conflict.otherCallsign ? `${conflict.otherCallsign}'s branch ${shortRef(conflict.otherBranch)}` : `the target ${shortRef(conflict.otherBranch)}`;
  item.tooltip = [`Merging ${conflict.callsign}'s work${conflict.branch ? ` (${shortRef(conflict.branch)})` : ''} with ${side} would conflict (forecast) in:`, ...bounded(conflict.paths, conflict.paths.length)].join('\n');
  item.iconPath = new vscode.ThemeIcon('git-merge', new vscode.ThemeColor('fleet.forecastConflict'));
  item.contextValue = 'forecastConflict';
  if (files[0] !== undefined) item.command = { command: 'vscode.open', title: 'Open the Conflicting File', arguments: [vscode.Uri.file(files[0])] };
  return item;
}

/** "… and N more": what a capped list of rows left out. */
export function moreItem(hidden: number, what: string, id: string, tooltip: string): vscode.TreeItem {
  const item = new vscode.TreeItem(`… and ${hidden.toLocaleString('en-US')} more ${what}`, vscode.TreeItemCollapsibleState.None);
  item.id = id;
  item.tooltip = tooltip;
  item.contextValue = 'more';
  return item;
}

/** A conflict the plane lists from the other agent's side, told from this one's (the files are the same paths here). */
function seenFrom({ conflict, files }: WorkspaceForecastConflict, writeSet: WorkspaceWriteSet): WorkspaceForecastConflict {
  const turned = { ...conflict, callsign: writeSet.callsign, branch: writeSet.branch, otherCallsign: conflict.callsign, otherBranch: conflict.branch ?? conflict.callsign };
  return { conflict: turned, files };
}

function bounded(paths: readonly string[], total: number): string[] {
  const hidden = total - Math.min(paths.length, PATHS_IN_TOOLTIP);
  return [...paths.slice(0, PATHS_IN_TOOLTIP).map((path) => `  ${path}`), ...(hidden > 0 ? [`  … and ${hidden.toLocaleString('en-US')} more`] : [])];
}

function shortRef(ref: string): string {
  return ref.replace(/^refs\/(heads|remotes)\//, '');
}
