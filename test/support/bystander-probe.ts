import { Worker } from 'node:worker_threads';
import type { PlaneAddress } from '../../server/client/plane-client.js';

export interface ProbeReport {
  count: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

/**
 * A bystander that keeps calling the plane while a test abuses it, from a worker thread of its own:
 * what it measures is the plane's answer time, not the test's own event loop (spawning processes,
 * parsing MCP frames). `stop()` ends it and reports the latencies.
 */
export function startBystanderProbe(address: PlaneAddress, token: string): { stop(): Promise<ProbeReport>; ready: Promise<void> } {
  const worker = new Worker(new URL('./bystander-probe-worker.js', import.meta.url), { workerData: { address, token } });
  const ready = new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return {
    ready,
    stop: async () => {
      await ready;
      const report = new Promise<number[]>((resolve, reject) => {
        worker.once('message', (latencies: number[]) => resolve(latencies));
        worker.once('error', reject);
      });
      worker.postMessage('stop');
      const latencies = (await report).sort((a, b) => a - b);
      await worker.terminate();
      const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
      return { count: latencies.length, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: latencies[latencies.length - 1] ?? 0 };
    },
  };
}
