import { existsSync, watch, type FSWatcher } from 'node:fs';
import type { PlaneConnectionStatus } from '../../contracts/lsp.js';
import { connectToPlane, NoPlaneError, readDiscovery } from '../client/connect.js';
import type { PlaneClient } from '../client/plane-client.js';
import { homePaths } from '../home/paths.js';
import { isAlive } from '../plane/processes/process-identity.js';
import { homeProblem } from './home-problem.js';

export interface PlaneLinkListener {
  /** A fresh connection: subscribe and load the state; throwing drops the connection. */
  connected(client: PlaneClient): Promise<void>;
  notification(method: string, params: unknown): void;
  statusChanged(): void;
}

export interface PlaneLinkOptions {
  home: string;
  cliEntry: string;
  log(message: string): void;
}

const MAX_BACKOFF_MS = 30_000;

/**
 * The language server's one observer connection to the plane of a FLEET_HOME: connects to the
 * running plane or starts one (the plane outlives this window), and when the plane goes away tells
 * the UI and comes back. A plane that crashed (plane.json left behind, process gone) is restarted;
 * one shut down on purpose (`fleet shutdown` removes plane.json) is not, until someone starts one —
 * the home folder is watched for that, and the extension offers a Start command.
 */
export class PlaneLink {
  private client: PlaneClient | undefined;
  private status: PlaneConnectionStatus = 'connecting';
  private message: string | undefined;
  private generation = 0;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private homeWatcher: FSWatcher | undefined;
  private disposed = false;

  constructor(
    private readonly options: PlaneLinkOptions,
    private readonly listener: PlaneLinkListener,
  ) {}

  get current(): PlaneClient | undefined {
    return this.client;
  }

  get state(): { status: PlaneConnectionStatus; message?: string } {
    return { status: this.status, ...(this.message !== undefined && { message: this.message }) };
  }

  /** First contact: join the running plane or start one. */
  start(): void {
    void this.connect(true);
  }

  /** Drops any wait and connects now; `start` also starts a plane when none runs. */
  reconnect(start: boolean): Promise<void> {
    this.attempt = 0;
    return this.connect(start);
  }

  dispose(): void {
    this.disposed = true;
    this.generation++;
    this.clearWaits();
    this.client?.close();
    this.client = undefined;
  }

  private async connect(autoStart: boolean): Promise<void> {
    const generation = ++this.generation;
    this.clearWaits();
    const previous = this.client;
    this.client = undefined;
    previous?.close();
    let client: PlaneClient | undefined;
    try {
      const problem = homeProblem(this.options.home);
      if (problem) throw new Error(problem);
      // The editor is the person's: its observer resumes the fleet and force-releases with the operator credential.
      client = await connectToPlane({ home: this.options.home, client: 'fleet-language-server', autoStart, cliEntry: this.options.cliEntry, credential: 'operator' });
      if (generation !== this.generation) {
        client.close();
        return;
      }
      const connection = client;
      this.client = connection;
      connection.onNotification((method, params) => {
        if (this.client === connection) this.listener.notification(method, params);
      });
      connection.onClose(() => this.lost(generation));
      await this.listener.connected(connection);
      if (generation !== this.generation) return;
      this.attempt = 0;
      this.setStatus('connected');
    } catch (error) {
      if (generation !== this.generation) return;
      client?.close();
      this.client = undefined;
      if (error instanceof NoPlaneError) {
        this.setStatus('stopped', `No plane is running on FLEET_HOME ${this.options.home}: it was shut down.`);
        this.watchHome();
      } else {
        const message = error instanceof Error ? error.message : String(error);
        this.options.log(`connecting to the plane failed: ${message}`);
        this.setStatus('failed', message);
        this.retryLater(() => this.connect(autoStart));
      }
    }
  }

  private lost(generation: number): void {
    if (generation !== this.generation || this.disposed) return;
    const pid = readDiscovery(this.options.home)?.discovery.pid;
    this.client = undefined;
    this.options.log('the plane connection closed');
    this.setStatus('reconnecting', 'The coordination plane went away; reconnecting.');
    this.attempt = 0;
    this.retryLater(() => this.recover(pid), 50);
  }

  /** Decides what the loss was: a plane still winding down, a crash, or a deliberate shutdown. */
  private async recover(previousPid: number | undefined): Promise<void> {
    if (this.disposed) return;
    if (readDiscovery(this.options.home)) return this.connect(false);
    if (previousPid !== undefined && isAlive(previousPid)) {
      this.retryLater(() => this.recover(previousPid));
      return;
    }
    if (existsSync(homePaths(this.options.home).discovery)) {
      // plane.json left behind by a process that is gone: it crashed, so bring one back.
      this.options.log('the plane process is gone without shutting down: starting a new plane');
      return this.connect(true);
    }
    this.setStatus('stopped', `The plane on FLEET_HOME ${this.options.home} was shut down.`);
    this.watchHome();
  }

  /** While no plane runs, a plane.json appearing (any client started one) brings us back. */
  private watchHome(): void {
    this.homeWatcher?.close();
    try {
      this.homeWatcher = watch(this.options.home, (_event, file) => {
        if (file === 'plane.json' && readDiscovery(this.options.home)) void this.connect(false);
      });
      this.homeWatcher.on('error', () => this.homeWatcher?.close());
    } catch {
      // No home folder yet: look again later.
      this.retryLater(() => this.recover(undefined), 10_000);
    }
  }

  private retryLater(action: () => Promise<void>, delayMs?: number): void {
    if (this.disposed) return;
    clearTimeout(this.retryTimer);
    const delay = delayMs ?? Math.min(MAX_BACKOFF_MS, 250 * 2 ** this.attempt++);
    this.retryTimer = setTimeout(() => void action(), delay);
  }

  private clearWaits(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.homeWatcher?.close();
    this.homeWatcher = undefined;
  }

  private setStatus(status: PlaneConnectionStatus, message?: string): void {
    if (this.disposed) return;
    this.status = status;
    this.message = message;
    this.listener.statusChanged();
  }
}
