import { readFileSync } from 'node:fs';

/**
 * A process's start time (clock ticks since boot, from /proc), so that a pid recorded earlier is
 * recognised as the same process and a reused pid is never mistaken for it. Undefined where /proc
 * is unavailable or the process is gone.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) may contain spaces and parentheses: split after its closing paren.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when `pid` still runs and is the process that was recorded with `start`. */
export function isSameProcess(pid: number, start: string | undefined): boolean {
  if (!isAlive(pid)) return false;
  if (start === undefined) return true;
  const current = processStartTime(pid);
  return current === undefined || current === start;
}
