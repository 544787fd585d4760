// The non-reading-client scenario (DESIGN §12), shared by the adversarial test and the bench: a
// child process floods the plane without reading while another client keeps claiming and timing
// its calls, and the plane's resident memory is sampled throughout.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loopThreadTime } from './loop-thread-time.js';
import type { PlaneProcess } from './plane-process.js';

const FLOODER = fileURLToPath(new URL('./non-reading-client.js', import.meta.url));

export interface FloodOutcome {
  /** Whether the plane dropped the flooder before the deadline. */
  dropped: boolean;
  /** Requests the flooder wrote before it was dropped. */
  sent: number;
  rssBeforeBytes: number;
  rssPeakBytes: number;
  /** Milliseconds of each call the other client made while the flood ran. */
  latenciesMs: number[];
  /**
   * Milliseconds the plane's event loop spent on a CPU during each of those calls: its work before
   * answering, free of the machine's other load. The window closes when this process reads it, so
   * the time this process itself waited for a CPU meanwhile (the plane works on the flood then,
   * after it answered) is taken off.
   */
  loopBusyMs: number[];
  /** Milliseconds the plane's event loop waited for a CPU other processes held, during each of those calls. */
  loopPreemptedMs: number[];
  /** Claim ids the plane acknowledged to the other client during the flood. */
  acknowledgedClaims: string[];
  elapsedMs: number;
}

/** Resident memory of a process, from /proc (Linux). */
export function residentBytes(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
}

export async function floodWithoutReading(plane: PlaneProcess, root: string, options: { seed: number; maxRequests: number; deadlineMs: number }): Promise<FloodOutcome> {
  const steady = await plane.connect('steady');
  await steady.call('fleet_agent_join', { callsign: 'STEADY', runtime: 'script' });
  const pid = plane.child.pid!;
  const rssBeforeBytes = residentBytes(pid);
  let rssPeakBytes = rssBeforeBytes;
  const started = Date.now();
  const flooder = spawn(process.execPath, [FLOODER, String(plane.port), plane.token, root, String(options.seed), String(options.maxRequests)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let report = '';
  flooder.stdout.setEncoding('utf8').on('data', (chunk: string) => (report += chunk));
  let finished = false;
  const exited = new Promise<void>((resolve) => flooder.once('exit', () => resolve())).then(() => (finished = true));
  const deadline = setTimeout(() => flooder.kill(), options.deadlineMs);
  const latenciesMs: number[] = [];
  const loopBusyMs: number[] = [];
  const loopPreemptedMs: number[] = [];
  const acknowledgedClaims: string[] = [];
  try {
    for (let i = 0; !finished; i++) {
      const selfBefore = loopThreadTime(process.pid);
      const loopBefore = loopThreadTime(pid);
      const start = performance.now();
      const result = await steady.call('fleet_claim_path', { patterns: [`steady/s${i}.ts`], root });
      latenciesMs.push(performance.now() - start);
      const loopAfter = loopThreadTime(pid);
      const selfWaitedMs = loopThreadTime(process.pid).waitingMs - selfBefore.waitingMs;
      loopBusyMs.push(Math.max(0, loopAfter.runningMs - loopBefore.runningMs - selfWaitedMs));
      loopPreemptedMs.push(loopAfter.waitingMs - loopBefore.waitingMs);
      if (result.granted) acknowledgedClaims.push(...result.claims.map((claim) => claim.id));
      rssPeakBytes = Math.max(rssPeakBytes, residentBytes(pid));
    }
    await exited;
  } finally {
    clearTimeout(deadline);
    steady.close();
  }
  const sent = report === '' ? 0 : (JSON.parse(report) as { sent: number }).sent;
  return { dropped: report !== '', sent, rssBeforeBytes, rssPeakBytes, latenciesMs, loopBusyMs, loopPreemptedMs, acknowledgedClaims, elapsedMs: Date.now() - started };
}
