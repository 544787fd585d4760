import { readFileSync } from 'node:fs';

/** What /proc says about a pid: running with its start time, gone (or a zombie), or unreadable. */
export type ProcessProbe = { kind: 'running'; start: string } | { kind: 'gone' } | { kind: 'unreadable' };

/**
 * Reads /proc/<pid>/stat. A zombie (state Z) has exited and only waits for its parent to reap it,
 * so it counts as gone. `unreadable` (no /proc, no descriptors left…) decides nothing.
 */
export function probeProcess(pid: number): ProcessProbe {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' && procMounted() ? { kind: 'gone' } : { kind: 'unreadable' };
  }
  // Field 2 (comm) may contain spaces and parentheses: split after its closing paren.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const start = fields[19];
  if (state === 'Z' || state === 'X') return { kind: 'gone' };
  return start === undefined ? { kind: 'unreadable' } : { kind: 'running', start };
}

let procChecked: boolean | undefined;
function procMounted(): boolean {
  procChecked ??= (() => {
    try {
      readFileSync('/proc/self/stat');
      return true;
    } catch {
      return false;
    }
  })();
  return procChecked;
}

/**
 * A process's start time (clock ticks since boot, from /proc), so that a pid recorded earlier is
 * recognised as the same process and a reused pid is never mistaken for it. Undefined where /proc
 * is unavailable or the process is gone.
 */
export function processStartTime(pid: number): string | undefined {
  const probe = probeProcess(pid);
  return probe.kind === 'running' ? probe.start : undefined;
}

/** True while `pid` runs; a zombie is dead (it has exited, only its entry remains). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return probeProcess(pid).kind !== 'gone';
}

/** True when `pid` still runs and is the process that was recorded with `start`. */
export function isSameProcess(pid: number, start: string | undefined): boolean {
  if (!isAlive(pid)) return false;
  if (start === undefined) return true;
  const current = processStartTime(pid);
  return current === undefined || current === start;
}
