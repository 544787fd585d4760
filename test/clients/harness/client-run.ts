// Runs a client CLI to its end, bounded: past the timeout its whole process group is killed.
import { spawn } from 'node:child_process';

/** Output kept per stream: enough for a failure message, bounded against a runaway client. */
const MAX_OUTPUT_CHARS = 256 * 1024;

export interface ClientRun {
  command: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** When it was spawned (Date.now()), and spawn to exit in milliseconds. */
  startedAt: number;
  ms: number;
}

/** Process groups of the clients running now: a driver that exits early (Ctrl-C, an uncaught error) takes them with it. */
const running = new Set<number>();
process.once('exit', () => {
  for (const pid of running) killGroup(pid);
});

export function runBounded(bin: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<ClientRun> {
  const started = Date.now();
  // Its own process group, so the timeout ends the client and everything it started (MCP servers, hooks).
  const child = spawn(bin, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  if (child.pid !== undefined) running.add(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout = (stdout + chunk).slice(-MAX_OUTPUT_CHARS)));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-MAX_OUTPUT_CHARS)));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid!);
  }, options.timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start ${bin}: ${error.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      // What the client left behind (an MCP server that outlived it) goes with its group.
      killGroup(child.pid!);
      running.delete(child.pid!);
      resolve({ command: [bin, ...args], code, signal, timedOut, stdout, stderr, startedAt: started, ms: Date.now() - started });
    });
  });
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

/** What a failed assertion should show about the run. */
export function describeRun(run: ClientRun): string {
  return `${run.command.join(' ')}\nexit ${run.code ?? run.signal}${run.timedOut ? ' (timed out, killed)' : ''} after ${run.ms} ms\nstdout: ${run.stdout.slice(-4000)}\nstderr: ${run.stderr.slice(-4000)}`;
}
