// The CPU the editor's own processes took: the VS Code server, its extension host and language
// server, and Chromium, reported beside the figures. (The run's check of other processes counts
// them as the suite's own through its cpuacct group, see bench/lib/machine.ts; without one, these
// orphans of a group kill read as other people's load.)
import { readdirSync } from 'node:fs';
import { cpuOf } from '../lib/proc.js';

type Stat = ReturnType<typeof cpuOf>;

function statOf(pid: string): Stat | undefined {
  try {
    return cpuOf(Number(pid));
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Clock ticks of every live descendant of this process, except the `excluded` pids and theirs. */
export function descendantTicks(excluded: readonly number[]): number {
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
  let ticks = 0;
  for (const [pid, stat] of stats) if (isOurs(pid)) ticks += stat.ticks;
  return ticks;
}
