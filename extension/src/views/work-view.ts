import * as vscode from 'vscode';
import { landedAs, type WorkItem, type WorkStatus } from '../../../contracts/index.js';
import type { TrainEntry } from '../../../contracts/index.js';
import type { FleetChanges, WorkspaceTrain } from '../../../contracts/lsp.js';
import type { FleetContext } from '../fleet-context.js';
import { readableReason } from '../../../contracts/reason-text.js';
import { RefreshThrottle } from './refresh-throttle.js';
import type { TreeCounter } from './tree-counter.js';
import { since } from './relative-time.js';
import { workDetails, type WorkDetail } from './work-details.js';
import { itemsOnTrains, logLines, sectionEntries, shortCommit, TRAIN_SECTIONS, trainSummary, type TrainSectionName } from './train-sections.js';

interface StatusNode {
  readonly kind: 'status';
  readonly status: WorkStatus;
  /** In the order the items reached this group: the plane's queue order, oldest first. */
  readonly items: Map<string, ItemNode>;
  /** The row standing for the items past GROUP_ROWS. */
  readonly more: MoreNode;
  /** The item rows VS Code was last given for this group: only those can need a refresh. */
  shown: Set<ItemNode>;
}
/** One item in one group: a move makes a new node (VS Code keeps tree nodes by element and by id). */
interface ItemNode {
  readonly kind: 'item';
  readonly id: string;
  readonly status: WorkStatus;
}
interface MoreNode {
  readonly kind: 'more';
  readonly status: WorkStatus;
}

interface DetailNode {
  readonly kind: 'detail';
  readonly id: string;
  readonly detail: WorkDetail;
}

/** A repository's train (DESIGN §14): its sections under it. */
interface TrainNode {
  readonly kind: 'train';
  readonly scope: string;
}
interface SectionNode {
  readonly kind: 'section';
  readonly scope: string;
  readonly section: TrainSectionName;
}
interface EntryNode {
  readonly kind: 'entry';
  readonly scope: string;
  readonly section: TrainSectionName;
  readonly entry: TrainEntry;
}
/** The running build's output under "Building now": its last lines as rows. */
interface LogNode {
  readonly kind: 'log';
  readonly scope: string;
}
interface SectionMoreNode {
  readonly kind: 'sectionMore';
  readonly scope: string;
  readonly section: TrainSectionName;
  readonly hidden: number;
}

/** A row as the Work view gives it to VS Code, with the rows under it (for the API and the tests). */
export interface WorkRow {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon?: string;
  children: WorkRow[];
}

type WorkNode = StatusNode | ItemNode | MoreNode | DetailNode | TrainNode | SectionNode | EntryNode | LogNode | SectionMoreNode;

/**
 * Item rows a group lists at most, the oldest first; one "… and N more" row stands for the rest.
 * Refreshing a group builds its children again: bounded, that costs the same at 20 or 20,000 items.
 */
export const GROUP_ROWS = 100;
/** A burst of queue changes repaints the view at most this often (the attention badge at once). */
const REFRESH_INTERVAL_MS = 1000;

/** Statuses in the order a person reads the queue: what needs attention first. */
const ORDER: { status: WorkStatus; label: string; icon: string; color?: string; tooltip?: string }[] = [
  { status: 'escalated', label: 'Escalated', icon: 'report', color: 'list.errorForeground' },
  { status: 'land_failed', label: 'Failed to land', icon: 'git-pull-request-closed', color: 'list.errorForeground', tooltip: 'Accepted work the train could not land and no rework fixes (the target checked out in a worktree, the remote refused): Needs You has the reason.' },
  { status: 'blocked', label: 'Blocked', icon: 'error', color: 'list.warningForeground' },
  { status: 'review', label: 'Waiting for verification', icon: 'eye' },
  { status: 'verified', label: 'Verified, waiting for a decision', icon: 'pass' },
  { status: 'rework', label: 'Rework', icon: 'debug-restart', color: 'list.warningForeground' },
  { status: 'in_progress', label: 'In progress', icon: 'sync' },
  { status: 'ready', label: 'Ready to pull', icon: 'circle-large-outline' },
  { status: 'landing', label: 'Landing', icon: 'arrow-circle-down', tooltip: "Accepted work on a train this window does not show (another repository's): merged onto the target with its batch, built, and landed only if GREEN. Work on a Train shown above is listed there only." },
  { status: 'done', label: 'Done', icon: 'check', color: 'charts.green' },
  { status: 'landed', label: 'Landed', icon: 'git-merge', color: 'charts.green', tooltip: "Landed on the target: each as the merge commit shown, built GREEN by the plane. What a Train shown above lists as landed is listed there only." },
  { status: 'rolled_back', label: 'Rolled back', icon: 'discard' },
];

/**
 * The work queue (fleet_work_list), grouped by status, attention first, under each repository's
 * Train. Agents pull ready work; the person reads who has what, what waits for review or a
 * decision, and what is blocked. What a Train lists (building, queued, landed) is listed there
 * only: the Landing and Landed groups hold just what no Train here shows. No
 * badge: the Fleet icon's badge is Needs You's count alone, the one the status bar shows. A change
 * refreshes the items it names, or the groups an item moved between, never the whole queue; a
 * group lists its oldest GROUP_ROWS items, and bursts of changes repaint at most once a second.
 */
export class WorkView implements vscode.TreeDataProvider<WorkNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<WorkNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly repainted = new vscode.EventEmitter<void>();
  /** After each repaint VS Code was asked for. */
  readonly onDidRepaint = this.repainted.event;
  private readonly view: vscode.TreeView<WorkNode>;
  private readonly subscriptions: vscode.Disposable[];
  private readonly trains = new Map<string, WorkspaceTrain>();
  /** One node per repository's train, kept so a change refreshes just it. */
  private readonly trainNodes = new Map<string, TrainNode>();
  private following = false;
  private readonly groups = new Map<WorkStatus, StatusNode>(ORDER.map(({ status }) => [status, { kind: 'status', status, items: new Map(), more: { kind: 'more', status }, shown: new Set() }]));
  private readonly items = new Map<string, ItemNode>();
  private readonly throttle = new RefreshThrottle<WorkNode>((rows) => this.refresh(rows), REFRESH_INTERVAL_MS);
  /** The groups listed at the last repaint: one appearing or emptying changes the list of groups itself. */
  private listed = '';
  /** Changes made while the view was hidden: VS Code is told once it shows (see refresh). */
  private owed = false;

  constructor(
    private readonly ctx: FleetContext,
    private readonly counter: TreeCounter,
  ) {
    this.view = vscode.window.createTreeView('fleet.work', { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions = [
      ctx.onDidChangeFleet((changes) => this.update(changes)),
      ctx.onDidChangeTrain((train) => this.trainChanged(train)),
      // The build's output is read only while someone looks at it.
      this.view.onDidChangeVisibility(({ visible }) => {
        // Shown, VS Code reads the tree: no refresh in the middle of that read; what changed while hidden after it.
        if (visible) {
          this.throttle.read();
          if (this.owed) this.throttle.request(undefined);
          this.owed = false;
        }
        this.followLog();
      }),
    ];
    for (const train of ctx.trains) this.trains.set(train.scope, train);
    this.update('all');
    this.followLog();
  }

  private trainChanged(train: WorkspaceTrain): void {
    this.trains.set(train.scope, train);
    const node = this.trainNodes.get(train.scope) ?? { kind: 'train', scope: train.scope };
    this.trainNodes.set(train.scope, node);
    this.followLog();
    // What the Train lists leaves the Landing and Landed groups (and comes back when it no longer does); a group appearing or emptying repaints the whole view.
    const repeating = this.listedGroups().filter((group) => group.status === 'landing' || group.status === 'landed');
    this.throttle.request(new Set([node, ...repeating]));
  }

  private followLog(): void {
    const follow = this.view.visible && [...this.trains.values()].some((train) => train.batch !== undefined);
    if (follow === this.following) return;
    this.following = follow;
    void this.ctx.request('fleet/followTrainLog', { follow }).catch(() => (this.following = false));
  }

  /** The trains with something to show, in a stable order. */
  private shownTrains(): TrainNode[] {
    // With the plane away what the train did last is no news: the view shows it again once connected.
    if (!this.ctx.connected) return [];
    return [...this.trainNodes.values()].filter((node) => (this.trains.get(node.scope)?.entries.length ?? 0) > 0).sort((a, b) => a.scope.localeCompare(b.scope));
  }

  private update(changes: FleetChanges | 'all'): void {
    if (changes === 'all') {
      this.items.clear();
      for (const group of this.groups.values()) group.items.clear();
      for (const item of this.ctx.state?.work ?? []) this.place(item.id, item.status);
      return this.throttle.request(undefined);
    }
    if (changes.work.length + changes.removedWork.length === 0) return;
    const rows = new Set<WorkNode>();
    for (const itemId of changes.removedWork) {
      const node = this.items.get(itemId);
      if (node) rows.add(this.leave(node));
      this.items.delete(itemId);
    }
    for (const item of changes.work) {
      const node = this.items.get(item.id);
      if (node?.status === item.status) {
        // A row VS Code was never given (past the cap, in a closed group) has nothing to repaint.
        if (this.groups.get(node.status)!.shown.has(node)) rows.add(node);
        continue;
      }
      if (node) rows.add(this.leave(node));
      this.place(item.id, item.status);
      rows.add(this.groups.get(item.status)!);
    }
    this.throttle.request(rows);
  }

  /** Takes the item out of its group, which repaints: its count, and its rows if the item was listed. */
  private leave(node: ItemNode): StatusNode {
    const group = this.groups.get(node.status)!;
    group.items.delete(node.id);
    return group;
  }

  private place(id: string, status: WorkStatus): void {
    const node: ItemNode = { kind: 'item', id, status };
    this.items.set(id, node);
    this.groups.get(status)?.items.set(id, node);
  }

  private shownGroups(): string {
    const trains = this.shownTrains().map((node) => `train:${node.scope}`);
    return [...trains, ...this.listedGroups().map((group) => group.status)].join();
  }

  /** What each shown Train lists, by the work status whose group would repeat it. */
  private onTrains(): Map<WorkStatus, Set<string>> {
    return itemsOnTrains(this.shownTrains().map((node) => this.trains.get(node.scope)!));
  }

  /** The first GROUP_ROWS items a group lists: those of its status no shown Train lists (the Train is their one place). */
  private groupRows(group: StatusNode): ItemNode[] {
    const onTrain = this.onTrains().get(group.status);
    const rows: ItemNode[] = [];
    for (const node of group.items.values()) {
      if (rows.length === GROUP_ROWS) break;
      if (!onTrain?.has(node.id)) rows.push(node);
    }
    return rows;
  }

  /** How many items a group lists (counted without walking the group: a train lists at most MAX_TRAIN_ENTRIES). */
  private groupCount(group: StatusNode, onTrains = this.onTrains()): number {
    let count = group.items.size;
    for (const id of onTrains.get(group.status) ?? []) if (group.items.has(id)) count -= 1;
    return count;
  }

  /** The groups with something to list, in reading order. */
  private listedGroups(): StatusNode[] {
    const onTrains = this.onTrains();
    return ORDER.map(({ status }) => this.groups.get(status)!).filter((group) => this.groupCount(group, onTrains) > 0);
  }

  /** Every refresh goes through here, so the counter sees what each change cost. */
  private refresh(asked: WorkNode[] | undefined): void {
    const listed = this.shownGroups();
    // A group appeared or emptied: the list of groups itself changed.
    const whole = asked === undefined || listed !== this.listed;
    this.listed = listed;
    const groups = new Set(asked);
    // An item that moved since it was asked for is gone from that group (refreshed for it); one whose group repaints goes with it.
    const rows = whole ? undefined : asked.filter((row) => row.kind !== 'item' || (this.items.get(row.id) === row && !groups.has(this.groups.get(row.status)!)));
    if (rows?.length === 0) return;
    // Hidden, VS Code reads the whole tree when the view shows (the first time) or is told then
    // (owed): a refresh now could land in the middle of that first read.
    if (this.view.visible) {
      this.counter.refreshed('work', rows);
      this.changed.fire(rows);
    } else this.owed = true;
    this.repainted.fire();
  }

  /** What the view shows, `depth` levels down, as VS Code would build it. */
  rows(depth: number, parent?: WorkNode): WorkRow[] {
    return this.children(parent).map((node) => {
      const item = this.getTreeItem(node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      const tooltip = typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value;
      const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined;
      return {
        id: item.id ?? '',
        label,
        ...(typeof item.description === 'string' && { description: item.description }),
        ...(tooltip !== undefined && { tooltip }),
        ...(icon !== undefined && { icon }),
        children: depth > 1 ? this.rows(depth - 1, node) : [],
      };
    });
  }

  /** VS Code reading the tree: refreshes wait until it is done (see RefreshThrottle). */
  getChildren(element?: WorkNode): WorkNode[] {
    this.throttle.read();
    return this.children(element);
  }

  private children(element?: WorkNode): WorkNode[] {
    if (!element) return [...this.shownTrains(), ...this.listedGroups()];
    if (element.kind === 'train' || element.kind === 'section' || element.kind === 'entry' || element.kind === 'log' || element.kind === 'sectionMore') return this.trainChildren(element);
    if (element.kind === 'status') {
      const rows = this.groupRows(element);
      element.shown = new Set(rows);
      return this.groupCount(element) > GROUP_ROWS ? [...rows, element.more] : rows;
    }
    if (element.kind === 'more') return [];
    const [parent, details] = element.kind === 'item' ? [itemRowId(element), this.detailsOf(element.id)] : [element.id, element.detail.children ?? []];
    return details.map((detail, index) => ({ kind: 'detail' as const, id: `${parent}/${index}`, detail }));
  }

  private trainChildren(element: TrainNode | SectionNode | EntryNode | LogNode | SectionMoreNode): WorkNode[] {
    const train = this.trains.get(element.scope);
    if (!train) return [];
    if (element.kind === 'train') {
      return TRAIN_SECTIONS.filter(({ name }) => sectionEntries(train, name).length > 0).map(({ name }) => ({ kind: 'section', scope: element.scope, section: name }));
    }
    if (element.kind === 'section') {
      const entries = sectionEntries(train, element.section);
      const rows: WorkNode[] = entries.slice(0, GROUP_ROWS).map((entry) => ({ kind: 'entry', scope: element.scope, section: element.section, entry }));
      if (entries.length > GROUP_ROWS) rows.push({ kind: 'sectionMore', scope: element.scope, section: element.section, hidden: entries.length - GROUP_ROWS });
      if (element.section === 'building' && train.batch?.logTail) rows.push({ kind: 'log', scope: element.scope });
      return rows;
    }
    if (element.kind === 'log') {
      return logLines(train.batch?.logTail).map((line, index) => ({ kind: 'detail', id: `train:${element.scope}:log/${index}`, detail: { label: line } }));
    }
    if (element.kind === 'entry') return entryDetails(element.entry).map((detail, index) => ({ kind: 'detail', id: `${entryRowId(element)}/${index}`, detail }));
    return [];
  }

  private detailsOf(id: string): WorkDetail[] {
    const work = this.work(id);
    return work ? workDetails(work) : [];
  }

  private work(id: string): WorkItem | undefined {
    return this.ctx.records?.workItem(id);
  }

  getTreeItem(node: WorkNode): vscode.TreeItem {
    this.counter.count('work');
    if (node.kind === 'train' || node.kind === 'section' || node.kind === 'entry' || node.kind === 'log' || node.kind === 'sectionMore') return this.trainItem(node);
    if (node.kind === 'status') {
      const look = ORDER.find((entry) => entry.status === node.status)!;
      const collapsed = node.status === 'done' || node.status === 'rolled_back' || node.status === 'landed' || node.status === 'landing';
      const item = new vscode.TreeItem(look.label, collapsed ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
      item.id = `status:${node.status}`;
      item.description = String(this.groupCount(node));
      item.iconPath = new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
      if (look.tooltip) item.tooltip = look.tooltip;
      return item;
    }
    if (node.kind === 'detail') {
      const item = new vscode.TreeItem(node.detail.label, node.detail.children?.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      item.id = node.id;
      item.description = node.detail.description;
      item.tooltip = node.detail.description;
      return item;
    }
    if (node.kind === 'more') return this.moreItem(node);
    const work = this.work(node.id);
    if (!work) return new vscode.TreeItem('(gone)');
    // Expanded: its plan, its rounds and what it waits for.
    const item = new vscode.TreeItem(work.title, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = itemRowId(node);
    const blockers = work.blockedBy.map((id) => this.work(id)?.title ?? 'an item no longer listed');
    // Landed: the merge commit; failed to land: why.
    const landing = work.status === 'landed' && work.landedCommit ? shortCommit(work.landedCommit) : work.status === 'land_failed' ? work.statusReason : undefined;
    item.description = [landing, work.assignee, blockers.length > 0 ? `waiting on ${blockers.length}` : undefined, since(work.updatedAt), work.kind].filter(Boolean).join(' · ');
    item.contextValue = `work.${work.status}`;
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(`${work.title} — ${work.status}${work.statusReason ? `: ${readableReason(work.statusReason)}` : ''}\n\n`);
    if (work.assignee) tooltip.appendText(`Assignee: ${work.assignee}${work.verifier ? `, verifier: ${work.verifier}` : ''}\n\n`);
    if (blockers.length > 0) tooltip.appendText(`Waiting on: ${blockers.join('; ')}\n\n`);
    if (work.paths.length > 0) tooltip.appendText(`Paths: ${work.paths.join(', ')}\n\n`);
    if (work.criteria.length > 0) tooltip.appendText(`Criteria: ${work.criteria.join('; ')}\n\n`);
    if (work.landedCommit) tooltip.appendText(`Landed as ${landedAs(work)!}${work.integration ? ` on ${work.integration.target} from ${work.integration.branch}` : ''}\n\n`);
    if (work.decision) tooltip.appendText(`Decision: ${work.decision.disposition} (${work.decision.reasonCode})`);
    item.tooltip = tooltip;
    return item;
  }

  private trainItem(node: TrainNode | SectionNode | EntryNode | LogNode | SectionMoreNode): vscode.TreeItem {
    const train = this.trains.get(node.scope);
    const several = this.trainNodes.size > 1;
    if (node.kind === 'train') {
      const target = train?.target ?? train?.entries[0]?.target ?? 'the default branch';
      const item = new vscode.TreeItem(`Train → ${target}${several ? ` (${node.scope})` : ''}`, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `train:${node.scope}`;
      item.description = train ? trainSummary(train) : '';
      item.iconPath = new vscode.ThemeIcon('git-pull-request');
      item.tooltip = `The integration train of ${node.scope}: accepted branches merged onto ${target} a batch at a time, built, and landed only GREEN (fleet integrate status).`;
      return item;
    }
    if (node.kind === 'section') {
      const look = TRAIN_SECTIONS.find(({ name }) => name === node.section)!;
      const count = train ? sectionEntries(train, node.section).length : 0;
      const item = new vscode.TreeItem(look.label, node.section === 'landed' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
      item.id = `train:${node.scope}:${node.section}`;
      item.description = node.section === 'building' && train?.batch ? `${count} · started ${since(train.batch.since)}` : String(count);
      item.iconPath = new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
      item.tooltip = look.tooltip;
      return item;
    }
    if (node.kind === 'log') {
      const lines = logLines(train?.batch?.logTail);
      const item = new vscode.TreeItem('Build output', lines.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
      item.id = `train:${node.scope}:log`;
      item.description = lines.at(-1);
      item.iconPath = new vscode.ThemeIcon('output');
      const tooltip = new vscode.MarkdownString();
      tooltip.appendText(`The running build's output so far (its last ${lines.length} lines here), read every few seconds while this view shows:\n\n`);
      tooltip.appendCodeblock(train?.batch?.logTail ?? '', 'text');
      item.tooltip = tooltip;
      return item;
    }
    if (node.kind === 'sectionMore') {
      const item = new vscode.TreeItem(`… and ${node.hidden.toLocaleString('en-US')} more`, vscode.TreeItemCollapsibleState.None);
      item.id = `train:${node.scope}:${node.section}:more`;
      item.tooltip = `The view lists ${GROUP_ROWS}; \`fleet integrate status\` lists them all.`;
      return item;
    }
    const { entry } = node;
    const work = this.work(entry.itemId);
    const label = entry.revert !== undefined ? `Revert of ${work?.title ?? entry.itemId}` : (work?.title ?? entry.branch);
    const item = new vscode.TreeItem(label, entryDetails(entry).length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = entryRowId(node);
    item.description = entryDescription(entry, work?.assignee);
    item.contextValue = `train.${entry.status}`;
    item.iconPath = ENTRY_ICONS[entry.status];
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(`${label} — ${entry.status} on the train\n\n`);
    tooltip.appendText(`Branch ${entry.branch} at ${entry.commit.slice(0, 12)} → ${entry.target}, queued by ${entry.queuedBy} ${since(entry.queuedAt)}\n\n`);
    if (entry.landedCommit) tooltip.appendText(`${entry.revert !== undefined ? 'Reverted' : 'Landed'} as ${entry.landedCommit}\n\n`);
    if (entry.reason) tooltip.appendText(`Why: ${entry.reason}\n\n`);
    item.tooltip = tooltip;
    return item;
  }

  private moreItem(node: MoreNode): vscode.TreeItem {
    const hidden = this.groupCount(this.groups.get(node.status)!) - GROUP_ROWS;
    const item = new vscode.TreeItem(`… and ${hidden.toLocaleString('en-US')} more`, vscode.TreeItemCollapsibleState.None);
    item.id = `more:${node.status}`;
    item.tooltip = `The view lists the ${GROUP_ROWS} oldest; \`fleet work list --status ${node.status}\` lists them all.`;
    return item;
  }

  dispose(): void {
    this.throttle.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    if (this.following) void this.ctx.request('fleet/followTrainLog', { follow: false }).catch(() => undefined);
    this.view.dispose();
    this.changed.dispose();
    this.repainted.dispose();
  }
}

/** A train entry's icon by where it is: on a branch still, merged, or out. */
const ENTRY_ICONS: Record<TrainEntry['status'], vscode.ThemeIcon> = {
  queued: new vscode.ThemeIcon('git-branch'),
  building: new vscode.ThemeIcon('git-branch'),
  landed: new vscode.ThemeIcon('git-commit', new vscode.ThemeColor('charts.green')),
  returned: new vscode.ThemeIcon('debug-restart', new vscode.ThemeColor('list.warningForeground')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
};

/** What a train entry's row says after its name: the merge commit once landed, why it left, else its branch at the pinned commit. */
function entryDescription(entry: TrainEntry, assignee: string | undefined): string {
  const by = assignee ? ` · ${assignee}` : '';
  if (entry.status === 'landed') return `${entry.landedCommit ? shortCommit(entry.landedCommit) : 'landed'} · ${entry.branch}${by}`;
  if (entry.status === 'returned') return `sent back: ${entry.reason ?? 'no reason recorded'}`;
  return `${entry.branch} @ ${shortCommit(entry.commit)}${by}`;
}

/** Under a train entry: the build's log tail it left with. */
function entryDetails(entry: TrainEntry): WorkDetail[] {
  return entry.status !== 'queued' && entry.status !== 'building' && entry.logTail ? [{ label: 'Build output', description: logLines(entry.logTail).at(-1) ?? '', children: logLines(entry.logTail).map((line) => ({ label: line })) }] : [];
}

/**
 * One id per item and section (the train holds one entry per item): an item moving from queued to
 * building is a new row. With one id in both sections, the refresh of the train's subtree met the
 * id under its new section while VS Code still had it under the old one, and its tree lost the row
 * ("Data tree node not found") and drew the sections after it no more.
 */
function entryRowId(node: EntryNode): string {
  return `train:${node.scope}:${node.section}:entry:${node.entry.itemId}`;
}

/** Unique across the tree even while VS Code still holds a moved item under its old group (it refreshes the two groups one after the other). */
function itemRowId(node: ItemNode): string {
  return `work:${node.status}:${node.id}`;
}
