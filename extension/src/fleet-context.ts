import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import {
  lspNotifications,
  type CodexRepositoryHooks,
  lspRequests,
  type FleetChanges,
  type FleetViewState,
  type LspNotificationName,
  type LspNotificationParams,
  type LspRequestName,
  type LspRequestParams,
  type LspRequestResult,
  type OwnershipEntry,
  type WorkspaceTrain,
  type WorkspaceViolation,
} from '../../contracts/lsp.js';
import type { Control, ControlState, Digest } from '../../contracts/index.js';
import type { FleetConfig } from './config.js';
import { FleetState } from './fleet-state.js';
import { createLanguageClient } from './language-client.js';
import { LifecycleQueue } from './lifecycle-queue.js';

const OPERATOR_KEY = 'fleet.operator.joinedAs';
/** How long a stopping server gets to answer shutdown before vscode-languageclient gives up on it. */
const STOP_TIMEOUT_MS = 2_000;
const SERVER_NOT_RUNNING = 'The Fleet language server is not running: see the Fleet Coordination output, then run "Fleet: Connect to the Plane (Launch It If Needed)".';

function serverStopped(home: string): FleetViewState {
  return {
    connection: { status: 'failed', home, message: 'The Fleet language server stopped; see the Fleet Coordination output, then run "Fleet: Connect to the Plane (Launch It If Needed)".' },
    control: null,
    agents: [],
    claims: [],
    work: [],
    operator: null,
  };
}

/**
 * The extension's one context object (after rust-analyzer's Ctx): owns the language client's
 * lifecycle and is the only place that talks to the language server. Everything else reads the
 * state it holds and listens to its events.
 */
export class FleetContext implements vscode.Disposable {
  readonly log: vscode.LogOutputChannel;
  private client: LanguageClient | undefined;
  private clientSubscriptions: vscode.Disposable[] = [];
  private readonly lifecycle = new LifecycleQueue<'start' | 'stop' | 'restart'>();
  private current: FleetState | undefined;
  private ownControl: { state: ControlState; until: number } | undefined;

  private readonly stateChanged = new vscode.EventEmitter<FleetViewState>();
  /** Status bar, context keys and notifications follow this: fired after every change. */
  readonly onDidChangeState = this.stateChanged.event;
  private readonly fleetChanged = new vscode.EventEmitter<FleetChanges | 'all'>();
  /**
   * The tree views follow this: what changed (agents, claims, work items, the switch), or 'all'
   * when the whole state was replaced (start-up, reconnect, after a gap, operator or folders).
   */
  readonly onDidChangeFleet = this.fleetChanged.event;
  private readonly ownershipChanged = new vscode.EventEmitter<OwnershipEntry[]>();
  readonly onDidChangeOwnership = this.ownershipChanged.event;
  private readonly digestPublished = new vscode.EventEmitter<Digest>();
  /** Each heartbeat digest the plane publishes. */
  readonly onDidPublishDigest = this.digestPublished.event;
  private readonly violationSeen = new vscode.EventEmitter<LspNotificationParams<'fleet/didSeeViolation'>>();
  /** Each write the plane saw in another agent's exclusive territory, in this workspace. */
  readonly onDidSeeViolation = this.violationSeen.event;
  private readonly violationsChanged = new vscode.EventEmitter<WorkspaceViolation[]>();
  /** The whole list of unacknowledged violations in this workspace, after each change. */
  readonly onDidChangeViolations = this.violationsChanged.event;
  private readonly forecastChanged = new vscode.EventEmitter<LspNotificationParams<'fleet/didChangeForecast'>>();
  /** Live write-sets and the merge conflicts forecast in this workspace, after each change (DESIGN §14). */
  readonly onDidChangeForecast = this.forecastChanged.event;
  private readonly trainChanged = new vscode.EventEmitter<WorkspaceTrain>();
  /** A repository's train of this workspace, after each change to it (DESIGN §14). */
  readonly onDidChangeTrain = this.trainChanged.event;
  private readonly trainsByScope = new Map<string, WorkspaceTrain>();
  private readonly codexHooksChanged = new vscode.EventEmitter<CodexRepositoryHooks[]>();
  /** The fleet's Codex hooks of this workspace's repositories and their trust, after each change. */
  readonly onDidChangeCodexHooks = this.codexHooksChanged.event;
  private codexRepositories: CodexRepositoryHooks[] = [];
  private readonly nestedRepositoryFound = new vscode.EventEmitter<string>();
  /** The root of a repository inside a workspace folder, with fleet activity, that git should judge its own files by. */
  readonly onDidFindNestedRepository = this.nestedRepositoryFound.event;
  private readonly serverStarted = new vscode.EventEmitter<void>();
  /** A (re)started server knows nothing the previous one was asked: caches must start over. */
  readonly onDidStartServer = this.serverStarted.event;

  constructor(
    readonly extension: vscode.ExtensionContext,
    readonly config: FleetConfig,
  ) {
    this.log = vscode.window.createOutputChannel('Fleet Coordination', { log: true });
  }

  get state(): FleetViewState | undefined {
    return this.current?.view;
  }

  /** The trains of this workspace's repositories, as the language server last told each. */
  get trains(): Iterable<WorkspaceTrain> {
    return this.trainsByScope.values();
  }

  get codexHooks(): readonly CodexRepositoryHooks[] {
    return this.codexRepositories;
  }

  /** One record by id, without building the state's arrays. */
  get records(): Pick<FleetState, 'agent' | 'claim' | 'workItem'> | undefined {
    return this.current;
  }

  get connected(): boolean {
    return this.current?.connection.status === 'connected';
  }

  /** The callsign this person joined as before (in any window), joined again on every start. */
  get joinedAs(): string | undefined {
    return this.extension.globalState.get<string>(OPERATOR_KEY);
  }

  /** Moves the fleet switch; the change this window made is not announced back to it. */
  async setControl(state: ControlState, reason?: string): Promise<Control> {
    this.ownControl = { state, until: Date.now() + 10_000 };
    return this.request('fleet/setControl', { state, ...(reason !== undefined && { reason }) });
  }

  isOwnControlChange(state: ControlState): boolean {
    return this.ownControl !== undefined && this.ownControl.state === state && Date.now() < this.ownControl.until;
  }

  rememberOperator(callsign: string): Thenable<void> {
    return this.extension.globalState.update(OPERATOR_KEY, callsign);
  }

  /** Starts the language server; starts, stops and restarts take turns (see LifecycleQueue). */
  start(): Promise<void> {
    return this.lifecycle.run('start', () => this.startClient());
  }

  stop(): Promise<void> {
    return this.lifecycle.run('stop', () => this.stopClient());
  }

  /** A new FLEET_HOME or a server gone: several asked for in a row are one restart. */
  restart(): Promise<void> {
    return this.lifecycle.run('restart', async () => {
      await this.stopClient();
      await this.startClient();
    });
  }

  private async startClient(): Promise<void> {
    if (this.client) return;
    const home = this.config.home;
    this.log.info(`starting the Fleet language server for FLEET_HOME ${home}`);
    const client = createLanguageClient(this.extension, this.log, () => ({
      home,
      cliEntry: this.extension.asAbsolutePath('dist/fleet.cjs'),
      ...(this.joinedAs !== undefined && { operatorCallsign: this.joinedAs }),
    }));
    this.client = client;
    this.clientSubscriptions = [
      this.onNotification(client, 'fleet/didChangeState', (state) => this.setState(state)),
      this.onNotification(client, 'fleet/didChangeFleet', (changes) => this.applyChanges(changes)),
      this.onNotification(client, 'fleet/didChangeOwnership', ({ entries }) => this.ownershipChanged.fire(entries)),
      this.onNotification(client, 'fleet/didPublishDigest', ({ digest }) => this.digestPublished.fire(digest)),
      this.onNotification(client, 'fleet/didSeeViolation', (seen) => this.violationSeen.fire(seen)),
      this.onNotification(client, 'fleet/didChangeViolations', ({ violations }) => this.violationsChanged.fire(violations)),
      this.onNotification(client, 'fleet/didChangeForecast', (forecast) => this.forecastChanged.fire(forecast)),
      this.onNotification(client, 'fleet/didChangeTrain', (train) => {
        this.trainsByScope.set(train.scope, train);
        this.trainChanged.fire(train);
      }),
      this.onNotification(client, 'fleet/didChangeCodexHooks', ({ repositories }) => {
        this.codexRepositories = repositories;
        this.codexHooksChanged.fire(repositories);
      }),
      this.onNotification(client, 'fleet/didFindNestedRepository', ({ root }) => this.nestedRepositoryFound.fire(root)),
      client.onDidChangeState(({ newState }) => {
        if (newState === State.Running) this.serverStarted.fire();
        // Stopped for good (vscode-languageclient gave up restarting it): say so instead of "connecting".
        if (newState === State.Stopped && this.client === client) this.setState(serverStopped(home));
      }),
    ];
    await client.start();
    this.setState(await this.send(client, 'fleet/getState', {}));
  }

  private async stopClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    for (const subscription of this.clientSubscriptions) subscription.dispose();
    this.clientSubscriptions = [];
    if (!client) return;
    // Mid-start (vscode-languageclient restarting a crashed server) it cannot be stopped yet: let it finish.
    if (client.state === State.Starting) await client.start().catch(() => undefined);
    if (client.state !== State.Running) return; // stopped already, or its start failed and it cleaned up after itself
    await client.dispose(STOP_TIMEOUT_MS).catch((error: Error) => this.log.warn(`the Fleet language server did not stop cleanly: ${error.message}`));
  }

  /**
   * A custom request to the language server, its result checked against contracts/lsp.ts. Waits for
   * a (re)start in progress; fails saying what to do if no server runs after it.
   */
  async request<N extends LspRequestName>(name: N, params: LspRequestParams<N>): Promise<LspRequestResult<N>> {
    for (let turns = this.lifecycle.settled(); ; turns = this.lifecycle.settled()) {
      await turns;
      if (turns === this.lifecycle.settled()) break; // no restart was asked for meanwhile
    }
    const client = this.client;
    // Starting: vscode-languageclient restarting a crashed server, which sendRequest waits for.
    if (client?.state !== State.Running && client?.state !== State.Starting) throw new Error(SERVER_NOT_RUNNING);
    try {
      return await this.send(client, name, params);
    } catch (error) {
      if (client.state !== State.Running) throw new Error(`The Fleet language server stopped before it answered ${name}; try again once it is back.`);
      throw error;
    }
  }

  private async send<N extends LspRequestName>(client: LanguageClient, name: N, params: LspRequestParams<N>): Promise<LspRequestResult<N>> {
    const raw: unknown = await client.sendRequest(name, params);
    return lspRequests[name].result.parse(raw) as LspRequestResult<N>;
  }

  private onNotification<N extends LspNotificationName>(client: LanguageClient, name: N, handler: (params: LspNotificationParams<N>) => void): vscode.Disposable {
    return client.onNotification(name, (raw: unknown) => {
      const parsed = lspNotifications[name].safeParse(raw);
      if (parsed.success) handler(parsed.data as LspNotificationParams<N>);
      else this.log.error(`ignored a malformed ${name} notification: ${parsed.error.message}`);
    });
  }

  private setState(state: FleetViewState): void {
    if (this.current) this.current.replace(state);
    else this.current = new FleetState(state);
    this.fleetChanged.fire('all');
    this.stateChanged.fire(state);
  }

  private applyChanges(changes: FleetChanges): void {
    if (!this.current) return;
    this.current.apply(changes);
    this.fleetChanged.fire(changes);
    this.stateChanged.fire(this.current.view);
  }

  async dispose(): Promise<void> {
    await this.stop();
    this.stateChanged.dispose();
    this.fleetChanged.dispose();
    this.ownershipChanged.dispose();
    this.digestPublished.dispose();
    this.violationSeen.dispose();
    this.violationsChanged.dispose();
    this.forecastChanged.dispose();
    this.trainChanged.dispose();
    this.codexHooksChanged.dispose();
    this.nestedRepositoryFound.dispose();
    this.serverStarted.dispose();
    this.log.dispose();
  }
}
