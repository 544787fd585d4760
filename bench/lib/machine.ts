import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuOf } from './proc.js';

/** CPU ticks the machine counted so far over all cores: busy, and in all (first line of /proc/stat). */
export function cpuTimes(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/** Share of all cores busy over the next `ms` (0..1), from /proc/stat: how loud the machine is. */
export async function machineBusy(ms = 500): Promise<number> {
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = cpuTimes();
  return (after.busy - before.busy) / Math.max(1, after.total - before.total);
}

/**
 * Waits (up to `maxMs`) until the machine is quiet — less than `threshold` of its cores busy —
 * so that the figures measure the system under test, not whatever else runs. Returns the last
 * reading, so a run on a busy machine says so instead of passing off noisy figures.
 */
export async function waitForQuiet(threshold: number, maxMs: number): Promise<number> {
  const deadline = Date.now() + maxMs;
  let busy = await machineBusy();
  while (busy > threshold && Date.now() < deadline) busy = await machineBusy();
  return busy;
}

const CPUACCT = '/sys/fs/cgroup/cpuacct';

/**
 * Where the machine allows it (root, cgroup v1 cpuacct, as on these machines), the suite moves into
 * an accounting group of its own: every process it starts, however deep and whoever reaps it, is
 * counted there. Accounting only: no limit is set, and scheduling is a separate hierarchy.
 */
function joinOwnCpuAccounting(): string | undefined {
  const group = join(CPUACCT, `fleet-bench-${process.pid}`);
  try {
    mkdirSync(group);
    writeFileSync(join(group, 'cgroup.procs'), String(process.pid));
  } catch {
    return undefined;
  }
  process.once('exit', () => {
    try {
      writeFileSync(join(CPUACCT, 'cgroup.procs'), String(process.pid));
      rmdirSync(group);
    } catch {
      // a child still running keeps the group; it is empty and costs nothing
    }
  });
  return group;
}

const accountingGroup = joinOwnCpuAccounting();

/** CPU ticks (1/100 s, as /proc/stat counts) the suite's own processes have used. */
function ownTicks(): number {
  if (accountingGroup) return Number(readFileSync(join(accountingGroup, 'cpuacct.usage'), 'utf8')) / 1e7;
  // Without it: this process and its children that have exited and were reaped. Grandchildren
  // orphaned by a group kill (the editor's VS Code and Chromium) then read as other people's load.
  return cpuOf('self').ticks;
}

/**
 * Measures how much CPU processes outside the suite took while a section ran: all CPU time the
 * machine spent, minus this process and its (exited) children. Sections end all their children
 * before they return, so the difference is other people's work.
 */
export class ForeignLoad {
  private readonly machine = cpuTimes();
  private readonly own = ownTicks();

  /** Share of the machine's total CPU capacity used by others since construction (0..1). */
  share(): number {
    const machine = cpuTimes();
    const total = machine.total - this.machine.total;
    const foreign = machine.busy - this.machine.busy - (ownTicks() - this.own);
    return Math.max(0, foreign) / Math.max(1, total);
  }
}
