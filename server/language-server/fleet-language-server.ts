import { join } from 'node:path';
import { CodeLensRefreshRequest, TextDocumentSyncKind, type Connection, type Diagnostic, type InitializeParams, type InitializeResult } from 'vscode-languageserver/node';
import { EVENT_NOTIFICATION, eventNotificationSchema, EVENTS_GAP_NOTIFICATION, eventsGapNotificationSchema, MAX_VIOLATIONS_LISTED, STORE_HEALTH_NOTIFICATION, storeHealthNotificationSchema, type FleetEvent, type StoreHealth, type Violation } from '../../contracts/index.js';
import type { Claim } from '../../contracts/index.js';
import { lspInitializationOptionsSchema, type FleetChanges, type FleetViewState, type LspNotificationName, type LspNotificationParams, type Ownership, type OwnershipEntry, type ViewClaim, type WorkspaceViolation } from '../../contracts/lsp.js';
import type { PlaneClient } from '../client/plane-client.js';
import { violationOf, violationView } from '../core/violations.js';
import { defaultHome } from '../plane/config.js';
import { registerCustomRequests, type FleetServices } from './custom-requests.js';
import { CodexHooksWatch } from './codex-hooks-watch.js';
import { CLAIM_ACTION_KIND, territoryActions, territoryDiagnostics, territoryHover, territoryLenses } from './editor-features.js';
import { FleetMirror } from './fleet-mirror.js';
import { OperatorSession } from './operator-session.js';
import { MirrorChanges } from './mirror-changes.js';
import { NestedRepositories } from './nested-repositories.js';
import { ownershipOf, type FileOwnership } from './ownership.js';
import { PlaneLink } from './plane-link.js';
import { readPublishedDigest } from './published-digest.js';
import { gatherPages } from '../client/gather-pages.js';
import { FlushScheduler } from './refresh-scheduler.js';
import { WatchedFiles } from './watched-files.js';
import { WorkspaceScopes, type FileLocation } from './workspace-scopes.js';
import { WorkspaceViolations } from './workspace-violations.js';
import { WorkspaceForecast } from './workspace-forecast.js';
import { WorkspaceTrain } from './workspace-train.js';

/** Events after which the forecast is read again: its own, and an agent gone or back (its write-set goes, stays awaiting landing, or is live again). */
const FORECAST_CHANGES: ReadonlySet<string> = new Set(['integration.forecast', 'integration.write_set', 'integration.reach', 'agent.left', 'agent.expired', 'agent.process_exited', 'agent.rejoined']);


/**
 * Turns the plane's state into editor features: a mirror of the plane loaded once and then kept
 * current by applying its events, ownership for the files the editor shows, diagnostics, hovers and
 * CodeLenses on open files, and the custom notifications that feed the extension's views, badges
 * and edit guard. After start-up the extension hears only what changed (fleet/didChangeFleet,
 * fleet/didChangeOwnership); the whole state goes again only after a reconnect or a gap.
 */
export class FleetLanguageServer implements FleetServices {
  /** A repository found inside a folder: the view state goes again, now with a root for its claims. */
  readonly scopes = new WorkspaceScopes((newScope) => {
    if (newScope) this.sendState();
    this.nestedRepositories.check();
  });
  readonly mirror = new FleetMirror();
  private readonly violations = new WorkspaceViolations();
  private readonly forecast = new WorkspaceForecast(
    this.scopes,
    (params) => {
      this.notify('fleet/didChangeForecast', params);
      this.nestedRepositories.check();
    },
    (message) => this.log(message),
  );
  private readonly nestedRepositories = new NestedRepositories(
    this.scopes,
    () => new Set([...[...this.mirror.liveClaims].map((claim) => claim.scope), ...this.forecast.scopesWithWriteSets]),
    (root) => this.notify('fleet/didFindNestedRepository', { root }),
  );
  readonly train = new WorkspaceTrain(this.scopes, (train) => this.notify('fleet/didChangeTrain', train), (message) => this.log(message));
  private readonly codexHooks = new CodexHooksWatch(
    () => this.scopes.folderScopes().map((scope) => scope.worktree),
    (repositories) => this.notify('fleet/didChangeCodexHooks', { repositories }),
    (message) => this.log(message),
  );
  operator!: OperatorSession;
  private link!: PlaneLink;
  /** The FLEET_HOME of the plane this window joins (the published digests are read from it). */
  home = '';
  private readonly watched = new WatchedFiles((location) => this.ownershipAt(location));
  private readonly open = new Set<string>();
  private readonly scheduler = new FlushScheduler(() => this.flush());
  private changes = new MirrorChanges();
  /** Events that arrive while the whole state loads, applied after it (those it already holds are skipped by seq). */
  private held: FleetEvent[] | undefined;
  /** The store's health as last noticed while the whole state loads, after its status was read. */
  private heldStore: StoreHealth | undefined;
  private lensRefresh = false;
  /** Whether the editor was last told the territory of a connected plane. */
  private showingLive = false;
  private folderEvents = false;

  constructor(private readonly connection: Connection) {
    connection.onInitialize((params) => this.initialize(params));
    connection.onInitialized(() => this.initialized());
    connection.onShutdown(() => this.dispose());
    connection.onDidOpenTextDocument(({ textDocument }) => this.opened(textDocument.uri));
    connection.onDidCloseTextDocument(({ textDocument }) => this.closed(textDocument.uri));
    connection.onHover(({ textDocument, position }) => territoryHover(this.ownershipOf(textDocument.uri), position.line));
    connection.onCodeLens(({ textDocument }) => territoryLenses(this.ownershipOf(textDocument.uri)));
    connection.onCodeAction(({ textDocument, context }) => (this.showingLive ? territoryActions(textDocument.uri, this.ownershipOf(textDocument.uri), context) : []));
    registerCustomRequests(connection, this);
  }

  private initialize(params: InitializeParams): InitializeResult {
    const options = lspInitializationOptionsSchema.parse(params.initializationOptions);
    this.home = options.home || defaultHome();
    this.lensRefresh = params.capabilities.workspace?.codeLens?.refreshSupport === true;
    this.folderEvents = params.capabilities.workspace?.workspaceFolders === true;
    this.scopes.setFolders((params.workspaceFolders ?? []).map((folder) => folder.uri));
    this.operator = new OperatorSession(this.home, (message) => this.log(message), () => this.everythingChanged());
    this.link = new PlaneLink(
      { home: this.home, cliEntry: options.cliEntry, log: (message) => this.log(message) },
      {
        connected: (client) => this.connected(client, options.operatorCallsign),
        notification: (method, params) => this.planeNotification(method, params),
        statusChanged: () => this.connectionChanged(),
      },
    );
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.None },
        hoverProvider: true,
        codeLensProvider: { resolveProvider: false },
        codeActionProvider: { codeActionKinds: ['quickfix', CLAIM_ACTION_KIND] },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'fleet-language-server' },
    };
  }

  private initialized(): void {
    if (this.folderEvents) {
      this.connection.workspace.onDidChangeWorkspaceFolders(({ added, removed }) => {
        this.scopes.changeFolders(added.map((folder) => folder.uri), removed.map((folder) => folder.uri));
        this.everythingChanged();
        this.codexHooks.changed();
      });
    }
    this.log(`FLEET_HOME ${this.home}`);
    this.link.start();
    this.codexHooks.start();
  }

  private async connected(client: PlaneClient, operatorCallsign: string | undefined): Promise<void> {
    await this.load(client);
    await this.loadViolations(client);
    await this.forecast.load(client);
    await this.train.load(client);
    if (operatorCallsign && !this.operator.current) await this.operator.join(operatorCallsign).catch((error: Error) => this.log(`joining as ${operatorCallsign} failed: ${error.message}`));
    else await this.operator.rejoin();
  }

  private planeNotification(method: string, params: unknown): void {
    if (method === EVENTS_GAP_NOTIFICATION) return void this.resumeAfterGap(params);
    if (method === STORE_HEALTH_NOTIFICATION) return this.storeHealthChanged(params);
    if (method !== EVENT_NOTIFICATION) return;
    const parsed = eventNotificationSchema.safeParse(params);
    if (!parsed.success) return;
    const event = parsed.data.event;
    if (event.type === 'digest.published') void this.digestPublished(event.toSeq);
    if (event.type === 'territory.violated') this.violationSeen(event);
    if (event.type === 'territory.violations_acknowledged' && this.violations.acknowledge(event.violationIds)) this.publishViolations();
    if (FORECAST_CHANGES.has(event.type)) this.forecast.changed(this.link.current);
    if (event.type === 'integration.queued' || event.type === 'integration.batch' || event.type === 'integration.batch_ended' || event.type === 'integration.left' || event.type === 'integration.configured') this.train.changed(this.link.current);
    if (this.held) return void this.held.push(event);
    // Scope ids renamed under the claims (an older plane's store migrated): start from the whole state again.
    if (event.type === 'scopes.migrated' && this.link.current) return void this.load(this.link.current).catch((error: Error) => this.log(`reloading after scopes.migrated failed: ${error.message}`));
    if (!this.mirror.apply(event, this.changes)) return;
    if (this.changes.reload && this.link.current) return void this.load(this.link.current).catch((error: Error) => this.log(`reloading the state failed: ${error.message}`));
    if (this.changes.urgent) this.scheduler.now();
    else if (!this.changes.empty) this.scheduler.soon();
  }

  /** The plane's store was cut off from its quorum, came back, or saw a clock skew: the status bar says so at once. */
  private storeHealthChanged(params: unknown): void {
    const parsed = storeHealthNotificationSchema.safeParse(params);
    if (!parsed.success) return;
    if (this.held) this.heldStore = parsed.data.store;
    else if (this.mirror.setStore(parsed.data.store)) {
      this.changes.storeChanged();
      this.scheduler.now();
    }
  }

  /** The plane ended the subscription because this window fell behind: subscribe again and reload the state once. */
  private async resumeAfterGap(params: unknown): Promise<void> {
    const gap = eventsGapNotificationSchema.safeParse(params);
    const client = this.link.current;
    if (!gap.success || !client) return;
    this.log(`fell behind the plane's events after seq ${gap.data.fromSeq}: subscribing again and reloading the state`);
    try {
      await this.load(client);
      await this.loadViolations(client);
      await this.forecast.load(client);
      await this.train.load(client);
    } catch (error) {
      this.log(`reloading after a gap failed: ${String(error)}`);
    }
  }

  /**
   * Subscribes, then loads the whole state (every page: the editor shows the whole territory
   * however large the fleet). Events arriving meanwhile are held and applied after it.
   */
  private async load(client: PlaneClient): Promise<void> {
    this.held = [];
    try {
      await client.call('fleet_events_subscribe', {});
      const status = await gatherPages((page) => client.call('fleet_status', page));
      this.heldStore = undefined; // the status is as new as any notice before it
      const work = await gatherPages((page) => client.call('fleet_work_list', page));
      this.mirror.load(status, work.items);
      for (const event of this.held) this.mirror.apply(event, new MirrorChanges());
      if (this.heldStore) this.mirror.setStore(this.heldStore);
    } finally {
      this.held = undefined;
      this.heldStore = undefined;
    }
    this.scheduler.dispose();
    this.changes = new MirrorChanges();
    this.everythingChanged();
  }

  /** Only violations in this workspace's repositories reach the person. */
  private violationSeen(event: Extract<FleetEvent, { type: 'territory.violated' }>): void {
    const seen = this.inWorkspace(violationView(violationOf(event)));
    if (!seen) return;
    this.notify('fleet/didSeeViolation', seen);
    if (this.violations.add(seen)) this.publishViolations();
  }

  /** The unacknowledged violations the plane holds, for the Explorer's marks (a reload keeps them). */
  private async loadViolations(client: PlaneClient): Promise<void> {
    const { violations } = await client.call('fleet_violations', { limit: MAX_VIOLATIONS_LISTED });
    this.violations.replace(violations.flatMap((violation) => this.inWorkspace(violation) ?? []));
    this.publishViolations();
  }

  private inWorkspace(violation: Violation): WorkspaceViolation | undefined {
    const root = this.scopes.rootFor(violation.scope);
    return root === undefined ? undefined : { violation, file: join(root, violation.path) };
  }

  private publishViolations(): void {
    this.notify('fleet/didChangeViolations', { violations: this.violations.list() });
  }

  private async digestPublished(toSeq: number): Promise<void> {
    const digest = await readPublishedDigest(this.home, toSeq);
    if (digest) this.notify('fleet/didPublishDigest', { digest });
    else this.log(`the published digest ${toSeq} could not be read from ${this.home}/digests`);
  }

  /**
   * Connected or not: with the plane away the territory shown would be stale (and, the operator's
   * session gone, the person's own claims would read as another agent's), so badges, diagnostics
   * and CodeLenses are cleared while it is away and come back with the connection.
   */
  private connectionChanged(): void {
    const live = this.link.state.status === 'connected';
    if (live === this.showingLive) return this.sendState();
    this.showingLive = live;
    this.log(live ? 'connected: showing the territory' : 'the plane is away: clearing the territory shown (badges, diagnostics, CodeLenses) until it is back');
    this.everythingChanged();
  }

  /** The whole state went (load, operator, folders): every watched file again, and the whole view state. */
  private everythingChanged(): void {
    this.publishOwnership(this.watched.changes([], true));
    this.sendState();
    this.nestedRepositories.check();
  }

  /** Tells the editor what the events applied since the last flush changed, and only that. */
  private flush(): void {
    const changes = this.changes;
    this.changes = new MirrorChanges();
    if (changes.empty || this.link.state.status !== 'connected') return;
    if (changes.fileClaims.length > 0) this.publishOwnership(this.watched.changes(changes.fileClaims, false));
    if (changes.claims.size > 0) this.nestedRepositories.check();
    this.notify('fleet/didChangeFleet', this.describeChanges(changes));
  }

  private describeChanges(changes: MirrorChanges): FleetChanges {
    const pick = <T>(ids: Set<string>, get: (id: string) => T | undefined): T[] => [...ids].flatMap((id) => get(id) ?? []);
    return {
      agents: pick(changes.agents, (id) => this.mirror.agent(id)),
      removedAgents: [...changes.removedAgents],
      claims: pick(changes.claims, (id) => {
        const claim = this.mirror.claim(id);
        return claim && this.viewClaim(claim);
      }),
      releasedClaims: [...changes.releasedClaims],
      work: pick(changes.work, (id) => this.mirror.workItem(id)),
      removedWork: [...changes.removedWork],
      ...(changes.control && this.mirror.control && { control: this.mirror.control }),
      ...(changes.store && this.mirror.plane?.store && { store: this.mirror.plane.store }),
    };
  }

  private viewClaim(claim: Claim): ViewClaim {
    const root = this.scopes.rootFor(claim.scope);
    return root === undefined ? claim : { ...claim, root };
  }

  private publishOwnership(entries: OwnershipEntry[]): void {
    if (entries.length === 0) return;
    this.notify('fleet/didChangeOwnership', { entries });
    let openChanged = false;
    for (const entry of entries) {
      if (!this.open.has(entry.uri)) continue;
      openChanged = true;
      void this.connection.sendDiagnostics({ uri: entry.uri, diagnostics: territoryDiagnostics(entry.ownership) });
    }
    if (openChanged && this.lensRefresh) void this.connection.sendRequest(CodeLensRefreshRequest.type);
  }

  viewState(): FleetViewState {
    const state = this.link.state;
    const connected = state.status === 'connected';
    const plane = this.mirror.plane;
    return {
      connection: { ...state, home: this.home, ...(connected && plane && { plane: { pid: plane.pid, port: plane.port, ...(plane.socket !== undefined && { socket: plane.socket }), version: plane.version, startedAt: plane.startedAt } }) },
      control: connected ? this.mirror.control : null,
      ...(connected && plane?.store && { store: plane.store }),
      agents: connected ? this.mirror.roster : [],
      claims: connected ? [...this.mirror.liveClaims].map((claim) => this.viewClaim(claim)) : [],
      work: connected ? this.mirror.work : [],
      operator: this.operator.current?.identity ?? null,
    };
  }

  watchOwnership(uri: string): FileOwnership {
    return this.watched.lookup(uri, this.scopes.locate(uri));
  }

  observer(): PlaneClient {
    const client = this.link.current;
    if (!client) throw new Error(`No coordination plane is connected (FLEET_HOME ${this.home}): ${this.link.state.message ?? 'connecting'}`);
    return client;
  }

  reconnect(start: boolean): Promise<void> {
    return this.link.reconnect(start);
  }

  private ownershipOf(uri: string): Ownership | null {
    const location = this.scopes.locate(uri);
    return location ? this.ownershipAt(location).ownership : null;
  }

  /** Nobody holds anything the editor can vouch for while the plane is away. */
  private ownershipAt(location: FileLocation): FileOwnership {
    if (!this.showingLive) return { ownership: null };
    return ownershipOf(this.mirror, location, this.operator.agentId);
  }

  private opened(uri: string): void {
    this.open.add(uri);
    const { ownership } = this.watchOwnership(uri);
    void this.connection.sendDiagnostics({ uri, diagnostics: territoryDiagnostics(ownership) });
  }

  private closed(uri: string): void {
    this.open.delete(uri);
    void this.connection.sendDiagnostics({ uri, diagnostics: [] as Diagnostic[] });
  }

  private sendState(): void {
    if (this.link) this.notify('fleet/didChangeState', this.viewState());
  }

  private notify<N extends LspNotificationName>(name: N, params: LspNotificationParams<N>): void {
    void this.connection.sendNotification(name, params);
  }

  private log(message: string): void {
    this.connection.console.info(message);
  }

  private dispose(): void {
    this.scheduler.dispose();
    this.codexHooks.dispose();
    this.forecast.dispose();
    this.train.dispose();
    this.operator?.dispose();
    this.link?.dispose();
  }
}
