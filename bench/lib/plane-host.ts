// Child-process entry: runs the real plane exactly as `fleet serve` does (loadConfig + startPlane,
// same log line), and additionally answers the benchmark over the IPC channel with the store's
// own counters (appends, fdatasyncs, bytes), CPU time and memory. The plane has no method that
// exposes fsync counts, so this is how the suite reads them without strace.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { loadConfig } from '../../server/plane/config.js';
import { startPlane } from '../../server/plane/plane.js';
import { EmbeddedStore } from '../../server/store/embedded-store.js';
import type { StoreStats } from '../../server/store/store.js';

export interface HostStats {
  store: StoreStats;
  cpu: NodeJS.CpuUsage;
  memory: NodeJS.MemoryUsage;
}

export type HostRequest = { type: 'stats'; id: number } | { type: 'profile-start' } | { type: 'profile-stop'; path: string } | { type: 'shutdown' };
export type HostReply = { type: 'listening'; port: number } | { type: 'stats'; id: number; stats: HostStats } | { type: 'profiled'; path: string };

// The plane opens exactly one store; catching it on open leaves the plane's code untouched.
type AnyStore = EmbeddedStore<unknown, { seq: number }>;
let store: AnyStore | undefined;
const remember = (opened: AnyStore): AnyStore => (store = opened);
const open = EmbeddedStore.prototype.open;
EmbeddedStore.prototype.open = function (this: AnyStore) {
  return open.call(remember(this));
} as typeof open;

const log = (message: string) => process.stderr.write(`[${new Date().toISOString()}] ${message}\n`);
const plane = await startPlane(loadConfig(process.env), log);
const send = (reply: HostReply) => process.send?.(reply);

// CPU profiles of a chosen window only (not of start-up), through the in-process inspector.
const inspector = new Session();
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) => inspector.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));

process.on('message', (request: HostRequest) => {
  if (request.type === 'profile-start') {
    inspector.connect();
    void post('Profiler.enable')
      .then(() => post('Profiler.setSamplingInterval', { interval: 200 }))
      .then(() => post('Profiler.start'));
  } else if (request.type === 'profile-stop') {
    void post('Profiler.stop').then((result) => {
      writeFileSync(request.path, JSON.stringify((result as { profile: unknown }).profile));
      inspector.disconnect();
      send({ type: 'profiled', path: request.path });
    });
  } else if (request.type === 'stats') {
    send({ type: 'stats', id: request.id, stats: { store: { ...store!.stats }, cpu: process.cpuUsage(), memory: process.memoryUsage() } });
  } else if (request.type === 'shutdown') {
    void plane.shutdown();
  }
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void plane.shutdown());
// A driver that dies must not leave its plane behind.
process.once('disconnect', () => void plane.shutdown());
send({ type: 'listening', port: plane.port });
await plane.closed;
process.exit();
