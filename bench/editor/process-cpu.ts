// The CPU the editor's own processes took: the VS Code server, its extension host and language
// server, and Chromium. The run's "other processes" check (bench/lib/machine.ts) counts only
// children that exited and were reaped, and these are killed as a group, orphans reaped by init:
// what of it this process cannot reap is credited to the suite before the window closes.
import { readdirSync, readFileSync } from 'node:fs';

interface Stat {
  ppid: number;
  /** utime + stime, in clock ticks. */
  own: number;
  /** own + cutime + cstime: with the children it reaped. */
  ticks: number;
}

function statOf(pid: string): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ').map(Number);
    const own = fields[11]! + fields[12]!;
    return { ppid: fields[1]!, own, ticks: own + fields[13]! + fields[14]! };
  } catch {
    return undefined; // gone meanwhile
  }
}

/**
 * Clock ticks of every live descendant of this process, except the `excluded` pids and theirs:
 * `all` of them, and `unreaped`, the own ticks of those that are not this process's children
 * (killed with their group, they are reaped by init, so this process's own count never sees them).
 */
export function descendantTicks(excluded: readonly number[]): { all: number; unreaped: number } {
  const stats = new Map<number, Stat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry);
    if (stat) stats.set(Number(entry), stat);
  }
  const isOurs = (pid: number): boolean => {
    for (let at = pid; at > 1; at = stats.get(at)?.ppid ?? 0) {
      if (excluded.includes(at)) return false;
      if (stats.get(at)?.ppid === process.pid) return true;
    }
    return false;
  };
  let all = 0;
  let unreaped = 0;
  for (const [pid, stat] of stats) {
    if (!isOurs(pid)) continue;
    all += stat.ticks;
    if (stat.ppid !== process.pid) unreaped += stat.own;
  }
  return { all, unreaped };
}

/** All ticks the machine counted so far, busy or idle, over all cores (first line of /proc/stat). */
export function machineTicks(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  return line.trim().split(/\s+/).slice(1).map(Number).reduce((sum, value) => sum + value, 0);
}
