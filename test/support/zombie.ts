// A real zombie process, for checks that a zombie counts as dead (DESIGN §5, §11).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * `sh` starts a short `sleep` in the background, then becomes a long `sleep`, which never reaps
 * the short one when it exits: that one stays a zombie until `parent` is killed (the caller's job).
 */
export async function startZombie(): Promise<{ pid: number; parent: ChildProcess }> {
  const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 600'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const pid = Number((await new Promise<Buffer>((resolve) => parent.stdout!.once('data', resolve))).toString().trim());
    // Polled: a process turning into a zombie sends its watcher no signal.
    for (let i = 0; i < 500; i++) {
      if (stateOf(pid) === 'Z') return { pid, parent };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`pid ${pid} never became a zombie`);
  } catch (error) {
    parent.kill('SIGKILL');
    throw error;
  }
}

/** Field 3 of /proc/<pid>/stat: R, S, Z… */
export function stateOf(pid: number): string | undefined {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2)[0];
}

/** Field 22 of /proc/<pid>/stat, read even for a zombie (the plane's own reader calls those gone). */
export function rawStartTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}
