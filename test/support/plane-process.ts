import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PlaneClient, type PlaneAddress } from '../../server/client/plane-client.js';

export const CLI = fileURLToPath(new URL('../../server/cli/main.js', import.meta.url));

export interface PlaneProcess {
  home: string;
  port: number;
  /** The plane's Unix socket, where it has one. */
  socket?: string;
  /** The plane token: what agents, hooks and the MCP bridge present. */
  token: string;
  /** The operator credential: what the person's tools (CLI operator verbs, the editor) present. */
  operatorToken: string;
  child: ChildProcess;
  /** Everything the plane wrote to stderr so far (its log). */
  output(): string;
  /** A connection with the plane token: unjoined until it joins, never the operator. */
  connect(client?: string): Promise<PlaneClient>;
  /** A connection with the operator credential: the person at the terminal. */
  connectAsOperator(client?: string): Promise<PlaneClient>;
  /** Ends the plane cleanly (SIGTERM) and waits for the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: no flush, no snapshot, no goodbye. */
  kill(): Promise<void>;
}

export function tempHome(prefix = 'fleet-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * Starts a real plane process on `home` (a temp one by default) with FLEET_PORT=0 and waits for
 * its readiness signal: the "listening" line it logs once plane.json is written.
 */
export async function startPlaneProcess(options: { home?: string; env?: NodeJS.ProcessEnv } = {}): Promise<PlaneProcess> {
  const home = options.home ?? tempHome();
  const child = spawn(process.execPath, [CLI, 'serve', '--home', home], {
    env: { ...process.env, FLEET_PORT: '0', ...options.env, FLEET_HOME: home },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr!.setEncoding('utf8');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: string) => {
      output += chunk;
      if (output.includes(' listening on ')) {
        child.stderr!.off('data', onData);
        child.stderr!.on('data', (more: string) => (output += more));
        resolve();
      }
    };
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`plane exited with ${code} before listening:\n${output}`)));
  });
  const discovery = JSON.parse(readFileSync(join(home, 'plane.json'), 'utf8')) as PlaneAddress;
  const token = readFileSync(join(home, 'token'), 'utf8').trim();
  const operatorToken = readFileSync(join(home, 'operator-token'), 'utf8').trim();
  return {
    home,
    port: discovery.port,
    ...(discovery.socket !== undefined && { socket: discovery.socket }),
    token,
    operatorToken,
    child,
    output: () => output,
    connect: (client = 'test') => PlaneClient.connect(discovery, token, client),
    connectAsOperator: (client = 'test-operator') => PlaneClient.connect(discovery, operatorToken, client),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export function removeHome(home: string): void {
  // Retried: a process ending meanwhile (a plane's git, a hook) may still add a file (ENOTEMPTY, seen in CI and the bench).
  rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
