import { readFileSync } from 'node:fs';

/**
 * Milliseconds a process's main thread (a Node process's event loop) has so far spent on a CPU
 * (`runningMs`) and ready but waiting for one while other processes held the cores (`waitingMs`),
 * from /proc/<pid>/task/<pid>/schedstat (Linux, nanoseconds). Sampled around another client's call,
 * the first is the work the plane did before it answered, whatever else the machine was running.
 */
export function loopThreadTime(pid: number): { runningMs: number; waitingMs: number } {
  const [running, waiting] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
  return { runningMs: running! / 1e6, waitingMs: waiting! / 1e6 };
}
