import * as vscode from 'vscode';
import { UNKNOWN_WRITER, type ControlState, type Digest, type Violation } from '../../contracts/index.js';
import type { CodexRepositoryHooks, FleetViewState } from '../../contracts/lsp.js';
import { needsTrust, repositoryName } from './codex-hooks.js';
import type { FleetConfig } from './config.js';
import type { FleetContext } from './fleet-context.js';
import { drainComplete } from './status-description.js';

const SHOW_DIGEST = 'Show Digest';
const SHOW_ROSTER = 'Show Roster';
const OPEN_FILE = 'Open File';
const CONNECT = 'Connect Again';
const OPEN_CODEX = 'Open Codex';

export interface FleetNotice {
  kind: 'blockers' | 'staleAgents' | 'controlChanges' | 'violations' | 'planeShutdown' | 'drainComplete' | 'codexHooks';
  message: string;
}

/**
 * Tells the person what a glance at the sidebar would: when a published heartbeat digest reports
 * new blockers or stale agents, and when someone else moves the fleet switch. Each kind is a
 * setting (`fleet.notifications.*`); what the previous digest already reported is not repeated.
 * Also logs which plane this window joined, and says when that plane was shut down, and when
 * Codex's hooks for a repository of the workspace wait for the person's trust (once per change).
 */
export class FleetNotifications implements vscode.Disposable {
  private control: { state: ControlState; setAt: string } | undefined;
  /** The plane this window joined last, until it is shut down. */
  private joined: { pid: number } | undefined;
  private knownBlockers = new Set<string>();
  private knownStale = new Set<string>();
  private lastDigestSeq: number | undefined;
  /** Whether the drain under way had completed at the last state (undefined: not draining). */
  private drained: boolean | undefined;
  /** What was last said about each repository whose Codex hooks wait for trust (its summary), so a change is said once. */
  private codexSaid = new Map<string, string>();
  private readonly notices = new vscode.EventEmitter<FleetNotice>();
  /** Each notification shown, for the extension's API. */
  readonly onDidNotify = this.notices.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly ctx: FleetContext,
    private readonly config: FleetConfig,
  ) {
    this.subscriptions = [
      ctx.onDidChangeState((state) => {
        this.connectionChanged(state.connection);
        this.controlMoved(state);
        this.drainMoved(state);
      }),
      ctx.onDidPublishDigest((digest) => this.digestPublished(digest)),
      ctx.onDidSeeViolation(({ violation, file }) => this.violationSeen(violation, file)),
      ctx.onDidChangeCodexHooks((repositories) => this.codexHooksChanged(repositories)),
    ];
  }

  /** A write the gate could not stop: say who wrote what of whose, and offer the file. */
  private violationSeen(violation: Violation, file: string): void {
    if (!this.config.notify('violations')) return;
    const writer = violation.writer === UNKNOWN_WRITER ? 'An unidentified writer' : violation.writer;
    this.show('violations', `Fleet: ${writer} wrote ${violation.path}, which ${violation.holder} holds exclusively (seen by ${violation.source}).`, OPEN_FILE, file);
  }

  /**
   * Codex skips hooks nobody trusted without a word: say so once per repository and state, and
   * offer a terminal running Codex there, where the person trusts them in /hooks (never done for them).
   */
  private codexHooksChanged(repositories: readonly CodexRepositoryHooks[]): void {
    const said = new Map<string, string>();
    for (const repository of repositories.filter(needsTrust)) {
      said.set(repository.worktree, repository.summary);
      if (this.codexSaid.get(repository.worktree) === repository.summary) continue;
      this.show('codexHooks', `Fleet: Codex hooks in ${repositoryName(repository)} (${repository.worktree}): ${repository.summary}`, OPEN_CODEX, repository.worktree);
    }
    this.codexSaid = said;
  }

  private digestPublished(digest: Digest): void {
    const blockers = digest.blockers.filter((blocker) => !this.knownBlockers.has(`${blocker.kind}:${blocker.ref}`));
    const stale = digest.staleAgents.filter((callsign) => !this.knownStale.has(callsign));
    this.knownBlockers = new Set(digest.blockers.map((blocker) => `${blocker.kind}:${blocker.ref}`));
    this.knownStale = new Set(digest.staleAgents);
    this.lastDigestSeq = digest.toSeq;
    if (blockers.length > 0 && this.config.notify('blockers')) {
      const first = blockers[0]!.text;
      this.show('blockers', `Fleet digest: ${blockers.length === 1 ? 'a new blocker' : `${blockers.length} new blockers`} — ${first}${blockers.length > 1 ? ' …' : ''}`, SHOW_DIGEST);
    }
    if (stale.length > 0 && this.config.notify('staleAgents')) {
      this.show('staleAgents', `Fleet digest: ${stale.join(', ')} stopped heartbeating; their claims lapse if they stay silent.`, SHOW_ROSTER);
    }
  }

  /** The Output names the plane joined (pid, FLEET_HOME, socket, port); a shutdown is a notification. */
  private connectionChanged(connection: FleetViewState['connection']): void {
    const plane = connection.plane;
    if (connection.status === 'connected' && plane && plane.pid !== this.joined?.pid) {
      this.joined = { pid: plane.pid };
      this.ctx.log.info(`joined the plane pid ${plane.pid} (version ${plane.version}, started ${plane.startedAt}): FLEET_HOME ${connection.home}, socket ${plane.socket ?? 'none'}, port ${plane.port}`);
    }
    if (connection.status === 'stopped' && this.joined) {
      const { pid } = this.joined;
      this.joined = undefined;
      this.show('planeShutdown', `Fleet: the coordination plane (pid ${pid}, FLEET_HOME ${connection.home}) was shut down; agents cannot claim, check or hand off work until it runs again.`, CONNECT);
    }
  }

  /** Tells once when a drain completes: the moment the operator was waiting for to stop the fleet. */
  private drainMoved(state: FleetViewState): void {
    const drained = drainComplete(state);
    if (drained && this.drained !== true) this.show('drainComplete', 'Fleet: drain complete — no agent holds work in progress; the fleet can be stopped or paused without losing work.', SHOW_ROSTER);
    this.drained = state.control?.state === 'drain' ? drained : undefined;
  }

  private controlMoved(state: FleetViewState): void {
    if (state.connection.status !== 'connected' || !state.control) return;
    const previous = this.control;
    this.control = { state: state.control.state, setAt: state.control.setAt };
    if (!previous || (previous.state === state.control.state && previous.setAt === state.control.setAt)) return;
    if (state.control.setBy === state.operator?.callsign || this.ctx.isOwnControlChange(state.control.state)) return;
    if (!this.config.notify('controlChanges')) return;
    const reason = state.control.reason ? `: ${state.control.reason}` : '.';
    this.show('controlChanges', `${state.control.setBy} set the fleet to ${state.control.state}${reason}`, SHOW_ROSTER);
  }

  /** `path`: the file Open File opens, or the worktree Open Codex starts in. */
  private show(kind: FleetNotice['kind'], message: string, action: string, path?: string): void {
    this.ctx.log.info(message);
    this.notices.fire({ kind, message });
    const shown = kind === 'controlChanges' || kind === 'drainComplete' ? vscode.window.showInformationMessage(message, action) : vscode.window.showWarningMessage(message, action);
    void shown.then((choice) => {
      // The digest that notified, as it was published (the view's history holds it).
      if (choice === SHOW_DIGEST) void vscode.commands.executeCommand('fleet.showDigest', this.lastDigestSeq !== undefined ? { toSeq: this.lastDigestSeq } : undefined);
      else if (choice === SHOW_ROSTER) void vscode.commands.executeCommand('fleet.roster.focus');
      else if (choice === OPEN_FILE && path !== undefined) void vscode.window.showTextDocument(vscode.Uri.file(path));
      else if (choice === CONNECT) void vscode.commands.executeCommand('fleet.startPlane');
      else if (choice === OPEN_CODEX && path !== undefined) openCodex(path);
    });
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.notices.dispose();
  }
}

/** A terminal running Codex in the repository, and the one thing to do there: the trust is the person's to give. */
function openCodex(worktree: string): void {
  const terminal = vscode.window.createTerminal({ name: 'Codex: trust the fleet hooks', cwd: worktree });
  terminal.show();
  terminal.sendText('codex');
  void vscode.window.showInformationMessage('In Codex, run /hooks: review the fleet hooks and trust them.');
}
