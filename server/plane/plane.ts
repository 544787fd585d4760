import { hostname } from 'node:os';
import { mkdir, unlink } from 'node:fs/promises';
import { PLANE_VERSION, PROTOCOL_VERSION } from '../../contracts/index.js';
import { FleetCore } from '../core/fleet-core.js';
import { removeStaleTempFiles, writeFileDurably } from '../store/durable-write.js';
import { serveConnection, type Dispatch } from '../transport/connection.js';
import { ThrottledLog } from '../transport/throttled-log.js';
import { unixSocketUnusable } from '../transport/unix-socket.js';
import { CLOSE_GRACE_MS, WsEndpoint } from '../transport/ws-endpoint.js';
import type { PlaneConfig } from './config.js';
import type { PlaneServices } from './handlers/handler.js';
import { ShellAnalyzer } from '../gate/shell-analyzer.js';
import { homePaths } from '../home/paths.js';
import { answerHookFront } from './hook-front.js';
import { dispatch } from './rpc/dispatcher.js';
import { InstanceLock } from './processes/instance-lock.js';
import { Journal } from './persistence/journal.js';
import { LedgerWriter } from './persistence/ledger-writer.js';
import { PlaneClock } from './plane-clock.js';
import { registerPid } from './processes/process-registration.js';
import { ProcessWatch } from './processes/process-watch.js';
import { randomIds } from './random-ids.js';
import { ScopeResolver } from './repository/scope-resolver.js';
import { openPlaneStore, type PlaneStore } from './persistence/plane-store.js';
import { backUpState, planScopeMigration } from './repository/scope-migration.js';
import { StopBackstop } from './processes/stop-backstop.js';
import { recordStart } from './shared-log/start-record.js';
import { loadTlsIdentity, openRemoteDoor, type RemoteDoor } from './remote/remote-door.js';
import { ServiceTokens } from './remote/service-tokens.js';
import { Compactor } from './persistence/compactor.js';
import { BuildRunner } from './build/build-runner.js';
import { TrainRunner } from '../integration/train/train-runner.js';
import { LandingWatch } from '../integration/train/landing-watch.js';
import { DigestPublisher } from './digest/digest-publisher.js';
import { DigestWebhook } from './digest/digest-webhook.js';
import { WorktreeWatchers } from './worktree-watcher/worktree-watchers.js';
import { startConflictForecast } from '../integration/forecast/start-conflict-forecast.js';

/** Snapshot (and rotate the log) after this many events, so a cold start replays a short tail. */
const COMPACT_EVERY_EVENTS = 20_000;

/**
 * The sweeper runs the core at least every 250 ms: a second without any run means the plane stood
 * still (GC, disk, SIGSTOP), and the core then keeps that time out of everyone's silence.
 */
const STALL_REAL_MS = 1_000;

/** How often registered agent processes are looked at: their end releases claims within 5 s. */
const PROCESS_WATCH_MS = 1_000;
/** How often the plane looks for work that landed on its target outside the train (a merge, a squash). */
const LANDING_WATCH_MS = 2_000;
/** How long start-up keeps announcing a start a shared log refuses as retryable (a cluster just formed). */
const START_RECORD_BOUND_MS = 30_000;

export interface RunningPlane {
  port: number;
  /** Resolves once the plane has shut down, cleanly or not. */
  closed: Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * The coordination plane: the single writer of the fleet's state for one FLEET_HOME. Start-up
 * takes the home's lock, loads the store, listens on loopback, and only then announces itself in
 * plane.json; shutdown flushes, snapshots and removes the announcement.
 */
export async function startPlane(config: PlaneConfig, log: (message: string) => void): Promise<RunningPlane> {
  const paths = homePaths(config.home);
  // A listener that cannot serve refuses start-up before anything else is touched.
  const tlsIdentity = config.listen ? await loadTlsIdentity(config.listen) : undefined;
  await mkdir(config.home, { recursive: true, mode: 0o700 });
  const lock = await InstanceLock.acquire(paths.lock, config.home);
  const clock = new PlaneClock(config.timeScale, config.clockOffsetMs);
  // A plane killed while replacing one of its files left the temp file beside it; the lock says
  // no other plane is writing them now.
  for (const file of [paths.ledger, paths.discovery, paths.token, paths.operatorToken, paths.serviceTokens]) await removeStaleTempFiles(file);
  let tokens;
  try {
    tokens = await ServiceTokens.load(paths.serviceTokens, clock);
  } catch (error) {
    await lock.release();
    throw error;
  }
  let opened: PlaneStore;
  // On a shared log, names this plane's messages and the liveness it logs.
  const planeId = randomIds.id('pl');
  try {
    opened = await openPlaneStore(config.store, paths.state, planeId, () => clock.now(), log);
  } catch (error) {
    await lock.release();
    throw error;
  }
  const { store, recovered } = opened;
  for (const notice of recovered.notices ?? []) log(`store: ${notice}`);
  const sweepEveryRealMs = Math.max(10, Math.min(250, config.agentTtlMs / config.timeScale / 20));
  const coreConfig = { agentTtlMs: config.agentTtlMs, edgeTtlMs: config.edgeTtlMs, leaseTtlMs: config.agentTtlMs, stallThresholdMs: STALL_REAL_MS * config.timeScale, ...(config.store.kind !== 'embedded' && { planeId, planeDeathTtlMs: config.planeDeathTtlMs }) };
  const core = new FleetCore(clock, randomIds, coreConfig, {
    snapshot: recovered.snapshot?.state ?? null,
    tail: recovered.tail,
  });
  // Scope ids of an older plane: the state as found is copied aside before the rename is logged.
  const migration = planScopeMigration(core.state);
  if (migration.gone.length > 0) log(`scopes: ${migration.gone.length} scope(s) of an older plane name repositories no longer on this machine and keep their old ids: ${migration.gone.join(', ')}`);
  const backup = migration.renames.length > 0 ? await backUpState(paths.state, new Date()) : undefined;
  let closing: Promise<void> | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const fatal = (error: Error) => {
    log(`fatal: the event log could not be made durable (${error.message}); stopping so nothing unacknowledged is ever acknowledged`);
    process.exitCode = 1;
    void shutdown();
  };
  const journal = new Journal(store, core.state.seq, fatal);
  core.onEvent((event) => journal.record(event));
  await opened.attach(core, journal, config.agentTtlMs / config.timeScale);
  const ledger = new LedgerWriter(core, paths.ledger, (error) => log(`ledger.json not written: ${error.message}`));
  const backstop = new StopBackstop(core, config.stopGraceMs / config.timeScale, log);
  const compactor = new Compactor(core, journal, store, COMPACT_EVERY_EVENTS, log, recovered.tail.length);
  journal.subscribe((events) => {
    compactor.observe(events.length);
    backstop.observe(events);
    ledger.changed();
  });

  // Two secrets, both new at each start: operator authority never rides on the token agents hold.
  const secrets = { plane: randomIds.token(), operator: randomIds.token() };
  await writeFileDurably(paths.token, secrets.plane, 0o600);
  await writeFileDurably(paths.operatorToken, secrets.operator, 0o600);
  const startedAt = clock.now();
  const announceStart = () => core.announceStart(process.pid, PLANE_VERSION);
  announceStart();
  if (migration.renames.length > 0) {
    core.migrateScopes(migration.renames);
    const parked = core.state.parkedClaims.size;
    log(`scopes: ${migration.renames.length} scope(s) of an older plane now have portable ids (${migration.renames.map((r) => `${r.from} -> ${r.to}`).join(', ')}); ${parked} overlapping claim(s) of merged scopes wait in the queue; the state as it was is kept in ${backup ?? '(no store folder to copy)'}`);
  }
  let port = 0;
  let socket: string | undefined = undefined; // both set once the endpoint listens
  let remote: RemoteDoor | undefined; // set once the TLS listener (--listen) serves
  const history = (fromSeq: number) => store.history(fromSeq);
  const builds = new BuildRunner(core, journal, log);
  // One plane per FLEET_HOME (the instance lock): a restarted plane is the same integrator.
  const integrator = { planeName: `plane ${hostname()}:${config.home}`, leaseTtlMs: coreConfig.leaseTtlMs, lookEveryMs: coreConfig.leaseTtlMs / config.timeScale / 3 };
  const train = new TrainRunner(core, journal, config.home, integrator.planeName, integrator.leaseTtlMs, integrator.lookEveryMs, log);
  const landings = new LandingWatch(core, LANDING_WATCH_MS, log);
  const webhook = config.digestWebhook && new DigestWebhook(config.digestWebhook, log);
  const digests = new DigestPublisher(core, journal, history, paths, log, clock, webhook);
  const scopes = new ScopeResolver();
  const worktrees = new WorktreeWatchers(core, scopes, log);
  // The train's integrator lease decides which plane forecasts between branches too.
  const integration = startConflictForecast(core, journal, integrator, log);
  worktrees.onWorktreeChange((agentIds) => integration.tracker.changed(agentIds));
  const services: PlaneServices = {
    core,
    journal,
    scopes,
    home: config.home,
    shell: new ShellAnalyzer(),
    info: () => ({ version: PLANE_VERSION, pid: process.pid, port, ...(socket !== undefined && { socket }), ...(remote && config.listen && { listen: `${config.listen.host}:${remote.port}` }), startedAt }),
    storeHealth: () => opened.health(),
    onStoreHealthChange: (listener) => opened.onHealthChange(listener),
    ...(opened.barrier && { storeBarrier: opened.barrier }),
    shutdown: () => void shutdown(),
    history,
    registerPid,
    builds,
    train,
    digests,
    worktrees,
    tokens,
  };
  const notices = new ThrottledLog(log);
  const dispatchCall: Dispatch = (session, method, params) => dispatch(services, session, method, params);
  const endpoint = new WsEndpoint(
    secrets,
    notices,
    (socket, credential) => serveConnection(socket, credential, dispatchCall, log, notices),
    (request) => answerHookFront(config.home, dispatchCall, log, request),
  );
  port = await endpoint.listen(config.port);
  socket = await listenOnSocket(endpoint, paths.socket, log);
  try {
    remote = config.listen && tlsIdentity ? await openRemoteDoor(config.listen, tlsIdentity, endpoint, tokens, dispatchCall, config.edgeTtlMs / 1000, notices, log) : undefined;
  } catch (error) {
    await endpoint.close();
    await store.close().catch(() => undefined);
    await lock.release();
    throw error;
  }
  await recordStart(core, journal, announceStart, START_RECORD_BOUND_MS, log);
  if (core.state.control.state === 'stop') backstop.arm();
  builds.kick();
  train.kick(); // a batch the plane was building or landing when it stopped resumes
  landings.start();
  worktrees.reconcile(); // the worktrees of agents that were live when the plane last stopped
  integration.tracker.reconcile();
  digests.start(config.digestIntervalMs / config.timeScale);
  const sweeper = setInterval(() => core.sweep(), sweepEveryRealMs);
  const processes = new ProcessWatch(core, PROCESS_WATCH_MS);
  processes.start();
  await ledger.write();
  const discovery = { port, ...(socket !== undefined && { socket }), ...(remote && config.listen && { listen: { host: config.listen.host, port: remote.port } }), pid: process.pid, version: PLANE_VERSION, protocolVersion: PROTOCOL_VERSION, startedAt: new Date(startedAt).toISOString() };
  await writeFileDurably(paths.discovery, JSON.stringify(discovery), 0o600);
  log(`plane ${PLANE_VERSION} listening on 127.0.0.1:${port}${socket === undefined ? '' : ` and ${socket}`} (FLEET_HOME ${config.home}, seq ${core.state.seq})`);
  if (remote && config.listen) log(`remote agents: TLS on ${config.listen.host}:${remote.port} (WebSocket JSON-RPC, MCP at /mcp), service tokens only`);

  function shutdown(): Promise<void> {
    closing ??= (async () => {
      log('plane shutting down');
      // While the sweeper still runs the core: a run after it stopped would log the shutdown's wait as a stall.
      opened.announceStop();
      clearInterval(sweeper);
      processes.stop();
      backstop.disarm();
      digests.stop();
      builds.stop();
      train.stop();
      landings.stop();
      worktrees.close();
      integration.close();
      core.queue.abandonAll();
      remote?.stopAccepting();
      const cutOff = await endpoint.close();
      await remote?.close();
      if (cutOff > 0) log(`${cutOff} client${cutOff === 1 ? '' : 's'} did not answer the close frame within ${CLOSE_GRACE_MS / 1000} s and ${cutOff === 1 ? 'was' : 'were'} cut off`);
      await unlink(paths.discovery).catch(() => undefined);
      await journal.whenDurable(core.state.seq).catch(() => undefined);
      await compactor.compactLatest();
      await opened.detach();
      await ledger.close();
      await store.close().catch(() => undefined);
      await lock.release();
      resolveClosed();
    })();
    return closing;
  }

  return { port, closed, shutdown };
}

/** The Unix socket clients on this machine prefer, where the platform and path allow one. */
async function listenOnSocket(endpoint: WsEndpoint, path: string, log: (message: string) => void): Promise<string | undefined> {
  const unusable = unixSocketUnusable(path);
  if (unusable !== undefined) {
    log(`no Unix socket at ${path}: ${unusable}`);
    return undefined;
  }
  try {
    await endpoint.listenOnSocket(path);
    return path;
  } catch (error) {
    log(`no Unix socket at ${path} (${(error as Error).message}): clients use TCP`);
    return undefined;
  }
}
