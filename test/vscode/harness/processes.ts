// Cleanup that must happen even if the test process dies: the VS Code server forks an extension host,
// a pty host and file watchers, so it runs detached (its own group) and the whole group is killed.
import type { ChildProcess } from 'node:child_process';

const exitCleanups = new Set<() => void>();
let hooked = false;

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

function runExitCleanups(): void {
  for (const fn of exitCleanups) {
    try { fn(); } catch { /* best effort: the process is going away */ }
  }
}

/** Runs a synchronous cleanup if this process exits (or gets SIGINT/SIGTERM/SIGHUP) first; returns the disarm. */
export function onProcessExit(cleanup: () => void): () => void {
  if (!hooked) {
    hooked = true;
    process.on('exit', runExitCleanups);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        runExitCleanups();
        process.kill(process.pid, signal); // handler removed by once(): the default action follows
      });
    }
  }
  exitCleanups.add(cleanup);
  return () => exitCleanups.delete(cleanup);
}

/** SIGTERM to the group, SIGKILL after graceMs, then SIGKILL again for any straggler in the group. */
export async function killProcessGroup(child: ChildProcess, exited: Promise<void>, graceMs = 5_000): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) {
    killGroup(pid, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((r) => { timer = setTimeout(r, graceMs); })]);
    clearTimeout(timer);
  }
  killGroup(pid, 'SIGKILL');
}
