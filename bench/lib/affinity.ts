import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';

/**
 * Pins a process and all its threads to the given CPUs (`taskset -a -p -c`). Used by the latency
 * section: on a VM, waking a process on another vCPU costs an inter-processor interrupt
 * (here ~40 µs each way), on the same vCPU a plain context switch (~5 µs). Left to the scheduler,
 * round trips flip between the two from one block to the next — 20 µs or 95 µs for the same echo —
 * so the client is pinned to one core and the server (the plane, or the floor's peer) to another:
 * the placement of any client and plane on a multi-core machine, and the same for floor and plane.
 * Returns false when it cannot pin (no taskset, or a single core).
 */
export function pin(pid: number, cpuList: string): boolean {
  if (cpus().length < 2) return false;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpuList, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const CLIENT_CPU = '0';
export const SERVER_CPU = '1';
export const allCpus = (): string => `0-${cpus().length - 1}`;
