import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlaneAddress } from '../../server/client/plane-client.js';
import { tempHome } from '../../test/support/plane-process.js';
import { track } from './children.js';
import type { HostReply, HostRequest, HostStats } from './plane-host.js';

const HOST = fileURLToPath(new URL('./plane-host.js', import.meta.url));

/** The driver's side of a plane-host child: the real plane, plus its store counters on request. */
export class PlaneHandle {
  private nextId = 1;
  private readonly waiting = new Map<number, (stats: HostStats) => void>();
  private readonly exited: Promise<number | null>;
  private stderr = '';

  private constructor(
    readonly child: ChildProcess,
    readonly home: string,
    readonly port: number,
    /** The plane's Unix socket (from plane.json), which its local clients use by default. */
    readonly socket: string | undefined,
    readonly token: string,
  ) {
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
    child.on('message', (reply: HostReply) => {
      if (reply.type !== 'stats') return;
      this.waiting.get(reply.id)?.(reply.stats);
      this.waiting.delete(reply.id);
    });
  }

  /** Starts a plane on `home` (a fresh temp one by default); `execArgv` e.g. for --cpu-prof. */
  static async start(options: { home?: string; execArgv?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<PlaneHandle> {
    const home = options.home ?? tempHome('fleet-bench-home-');
    const child = track(fork(HOST, [], {
      execArgv: options.execArgv ?? [],
      env: { ...process.env, FLEET_PORT: '0', ...options.env, FLEET_HOME: home },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    }));
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => (stderr += chunk));
    const port = await new Promise<number>((resolve, reject) => {
      child.on('message', (reply: HostReply) => reply.type === 'listening' && resolve(reply.port));
      child.once('exit', (code) => reject(new Error(`plane host exited with ${code} before listening:\n${stderr}`)));
    });
    const token = readFileSync(join(home, 'token'), 'utf8').trim();
    const { socket } = JSON.parse(readFileSync(join(home, 'plane.json'), 'utf8')) as PlaneAddress;
    const handle = new PlaneHandle(child, home, port, socket, token);
    handle.stderr = stderr;
    child.stderr!.on('data', (chunk: string) => (handle.stderr += chunk));
    return handle;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Where local clients reach the plane: its Unix socket when it has one (a plain object, for IPC). */
  get address(): PlaneAddress {
    return { port: this.port, ...(this.socket !== undefined && { socket: this.socket }) };
  }

  output(): string {
    return this.stderr;
  }

  stats(): Promise<HostStats> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.send({ type: 'stats', id } satisfies HostRequest);
    });
  }

  profileStart(): void {
    this.child.send({ type: 'profile-start' } satisfies HostRequest);
  }

  /** Stops the profile started by profileStart and writes it (a .cpuprofile) to `path`. */
  profileStop(path: string): Promise<void> {
    return new Promise((resolve) => {
      const onReply = (reply: HostReply) => {
        if (reply.type !== 'profiled') return;
        this.child.off('message', onReply);
        resolve();
      };
      this.child.on('message', onReply);
      this.child.send({ type: 'profile-stop', path } satisfies HostRequest);
    });
  }

  /** Clean shutdown (flush, snapshot), as SIGTERM does for `fleet serve`. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.connected) this.child.send({ type: 'shutdown' } satisfies HostRequest);
    return this.exited;
  }

  async kill(): Promise<void> {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}
