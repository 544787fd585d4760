// Starts the VS Code server of an engine on a free port, in its own process group.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Engine } from './engines.js';
import { killGroup, killProcessGroup, onProcessExit } from './processes.js';

export interface VSCodeServer {
  port: number;
  /** http://127.0.0.1:port */
  origin: string;
  dataDir: string;
  /** Server stdout/stderr lines so far. */
  output: string[];
  /** Settles when the server's main process exits, for whatever reason. */
  exited: Promise<void>;
  stop(): Promise<void>;
}

export interface StartServerOptions {
  engine: Engine;
  /** Added to this process's environment (undefined unsets); the extension host inherits it. */
  env?: Record<string, string | undefined>;
  onOutput?: (line: string) => void;
  /** Where the server's temporary data dir goes (default: the OS temp dir). */
  tempDir?: string;
  /** User settings (settings.json) on top of DEFAULT_SETTINGS. */
  settings?: Record<string, unknown>;
  readyTimeoutMs?: number;
}

// Built-in extensions send telemetry unless the user setting says no; offline that only logs errors.
export const DEFAULT_SETTINGS: Record<string, unknown> = {
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
};

// The server prints this once it accepts connections; with --port 0 it also tells which port it got.
const READY = /Extension host agent listening on (\d+)/;

export async function startServer(opts: StartServerOptions): Promise<VSCodeServer> {
  const { engine } = opts;
  const dataDir = mkdtempSync(join(opts.tempDir ?? tmpdir(), 'fleet-vscode-server-'));
  mkdirSync(join(dataDir, 'data', 'User'), { recursive: true });
  writeFileSync(join(dataDir, 'data', 'User', 'settings.json'), JSON.stringify({ ...DEFAULT_SETTINGS, ...opts.settings }, null, 2));
  // Offline: an empty gallery (code-server reads EXTENSIONS_GALLERY) and no telemetry keep VS Code
  // from dialing open-vsx.org and Microsoft's telemetry hosts.
  const env: Record<string, string | undefined> = { ...process.env, EXTENSIONS_GALLERY: '{}', ...opts.env };
  // The extension host must not think it is a node:test worker, and helpers that spawn `node` get the engine's.
  delete env.NODE_TEST_CONTEXT;
  env.PATH = `${dirname(engine.node)}${delimiter}${env.PATH ?? ''}`;
  const child = spawn(
    engine.node,
    ['out/server-main.js', '--host', '127.0.0.1', '--port', '0', '--without-connection-token',
      '--accept-server-license-terms', '--disable-workspace-trust', '--telemetry-level', 'off', '--server-data-dir', dataDir],
    { cwd: engine.serverDir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  const disarm = onProcessExit(() => {
    if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    removeDataDir();
  });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await killProcessGroup(child, exited);
    disarm();
    removeDataDir();
  };

  try {
    const port = await waitForPort(child, output, opts.onOutput, opts.readyTimeoutMs ?? 60_000);
    return { port, origin: `http://127.0.0.1:${port}`, dataDir, output, exited, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function waitForPort(child: ChildProcess, output: string[], onOutput: ((l: string) => void) | undefined,
  timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const tail = () => output.slice(-30).join('\n');
    const timer = setTimeout(() => reject(new Error(`VS Code server not ready after ${timeoutMs} ms:\n${tail()}`)), timeoutMs);
    const onLine = (line: string) => {
      output.push(line);
      onOutput?.(line);
      const m = READY.exec(line);
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    };
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    child.once('error', (err) => { clearTimeout(timer); reject(err); });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`VS Code server exited (${signal ?? code}) before it was ready:\n${tail()}`));
    });
  });
}
