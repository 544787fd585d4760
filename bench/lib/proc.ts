import { readFileSync } from 'node:fs';

/** Resident and peak resident memory of a process, in bytes, from /proc (Linux). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/**
 * Parent pid and CPU clock ticks (utime + stime + cutime + cstime: with the children it reaped) of a
 * process, from /proc/<pid>/stat.
 */
export function cpuOf(pid: number | 'self'): { ppid: number; ticks: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): ppid is 4th of the line, utime, stime,
  // cutime, cstime 14th-17th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return { ppid: fields[1]!, ticks: fields[11]! + fields[12]! + fields[13]! + fields[14]! };
}
