import { spawn } from 'node:child_process';

/** Output kept from a build: the tail, so a build that floods its output costs this much memory at most. */
export const KEEP_OUTPUT_CHARS = 64 * 1024;

export interface CommandOutcome {
  exitCode: number | null;
  durationMs: number;
  /** The last KEEP_OUTPUT_CHARS of stdout and stderr, interleaved. */
  log: string;
  timedOut: boolean;
}

/** How long the output pipes may stay open after the build's shell exited (a detached grandchild holding them). */
const PIPE_DRAIN_MS = 1_000;

/**
 * Runs a build command in `cwd` in a process group of its own, killed whole at the timeout, keeping
 * only the output's tail. `onStart` receives the way to kill it early (the plane stopping); `onOutput`
 * the tail so far, as it grows (a live view).
 */
export function runBuildCommand(
  command: string,
  cwd: string,
  timeoutMs: number,
  onStart: (kill: () => void) => void = () => undefined,
  onOutput: (tail: string) => void = () => undefined,
): Promise<CommandOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    const child = spawn('sh', ['-c', command], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    onStart(killGroup);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-KEEP_OUTPUT_CHARS);
      onOutput(output);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let settled = false;
    let drain: NodeJS.Timeout | undefined;
    const finish = (exitCode: number | null, extra = '') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ exitCode, durationMs: Math.round(performance.now() - started), log: output + extra, timedOut });
    };
    const ended = (code: number | null) => finish(code, timedOut ? `\ntimed out after ${timeoutMs / 1000} s` : '');
    child.once('error', (error) => finish(null, `\ncould not start the build: ${error.message}`));
    child.once('close', ended);
    // A process that left the group (setsid) may keep the pipes open forever: the build is over when its shell exits.
    child.once('exit', (code) => (drain = setTimeout(() => ended(code), PIPE_DRAIN_MS)));
  });
}
