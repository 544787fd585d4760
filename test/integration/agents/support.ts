import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventNotificationSchema, type FleetEvent } from '../../../contracts/index.js';
import { readDiscovery } from '../../../server/client/connect.js';
import { PlaneClient } from '../../../server/client/plane-client.js';
import { isAlive } from '../../../server/plane/processes/process-identity.js';
import { CLI } from '../../support/plane-process.js';

/** A connection to the plane of `home` (started by a process under test) with the plane token: unjoined until it joins. */
export async function connectTo(home: string, client = 'test'): Promise<PlaneClient> {
  const found = readDiscovery(home);
  if (!found) throw new Error(`no plane is running on ${home}`);
  return PlaneClient.connect(found.discovery, found.token, client);
}

/** A connection to the plane of `home` with the operator credential (FLEET_HOME/operator-token), as the person's tools open it. */
export async function connectAsOperatorTo(home: string, client = 'test-operator'): Promise<PlaneClient> {
  const found = readDiscovery(home);
  if (!found) throw new Error(`no plane is running on ${home}`);
  return PlaneClient.connect(found.discovery, readFileSync(join(home, 'operator-token'), 'utf8').trim(), client);
}

/** Ends the plane a process under test started, and waits until its process is gone. */
export async function shutdownPlane(home: string): Promise<void> {
  const found = readDiscovery(home);
  if (!found) return;
  try {
    const client = await connectAsOperatorTo(home, 'test-shutdown');
    await client.call('fleet_plane_shutdown', {}).catch(() => undefined);
    client.close();
  } catch {
    process.kill(found.discovery.pid, 'SIGTERM');
  }
  await until(() => !isAlive(found.discovery.pid), 10_000, `the plane (pid ${found.discovery.pid}) did not exit`);
}

/** Polls `condition` until it holds; the readiness signal of things that have no event to wait on. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Keeps a test's own agent connection alive under a short FLEET_AGENT_TTL. */
export function keepAlive(client: PlaneClient, everyMs = 400): () => void {
  const timer = setInterval(() => void client.call('fleet_control_get', {}).catch(() => undefined), everyMs);
  return () => clearInterval(timer);
}

/**
 * Runs a hook's command through a shell, `input` on stdin, as the agent runtime would, without
 * blocking this process: a test's own plane connections must keep answering the plane's pings
 * while hooks run (a spawnSync stretch longer than the ping interval gets them dropped).
 */
export async function runShell(command: string, options: { cwd: string; env: NodeJS.ProcessEnv; input: string }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('sh', ['-c', command], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.input);
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, stdout, stderr };
}

export function planePid(home: string): number {
  return (JSON.parse(readFileSync(join(home, 'plane.json'), 'utf8')) as { pid: number }).pid;
}

/** Every durable event so far (the replay arrives before the subscription's reply). */
export async function eventsOf(home: string): Promise<FleetEvent[]> {
  const client = await connectTo(home, 'test-events');
  const events: FleetEvent[] = [];
  client.onNotification((method, params) => {
    if (method === 'fleet_event') events.push(eventNotificationSchema.parse(params).event);
  });
  await client.call('fleet_events_subscribe', { fromSeq: 0 });
  client.close();
  return events;
}

/** A `fleet demo` process on `home` whose output is kept, killed after the test if still running. */
export interface DemoProcess {
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
  stdout(): string;
  stderr(): string;
  /** The output's tails, for an assertion's message. */
  context(): string;
}

export function startDemo(t: { after(fn: () => void): void }, home: string, args: readonly string[]): DemoProcess {
  const child = spawn(process.execPath, [CLI, 'demo', ...args], { env: { ...process.env, FLEET_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return { exited, kill: (signal) => void child.kill(signal), stdout: () => stdout, stderr: () => stderr, context: () => `\n--- stdout (tail) ---\n${stdout.slice(-3000)}\n--- stderr ---\n${stderr.slice(-2000)}` };
}
