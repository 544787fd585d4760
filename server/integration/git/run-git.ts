import { spawn } from 'node:child_process';

/** What one git run produced; `stdout` is cut at the output bound (`truncated` says so). */
export interface GitRun {
  /** Exit code, or null when git was killed (timeout) or could not start. */
  code: number | null;
  stdout: Buffer;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
}

export interface GitRunOptions {
  /** Killed after this long: the plane never waits on git without a bound. */
  timeoutMs: number;
  /** Bytes of stdout kept; git is killed once it writes more (nothing past the bound is read). */
  maxOutputBytes: number;
  /** Added to git's environment (e.g. a temporary GIT_INDEX_FILE). */
  env?: Record<string, string>;
}

const STDERR_KEPT_CHARS = 4_096;

/**
 * The environment every plane-run git gets: no prompt for credentials, no optional locks (a read
 * like `status` must never take the agent's index lock), the C locale for parseable messages, and
 * no pager or editor.
 */
const QUIET_GIT_ENV = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  LC_ALL: 'C',
  GIT_PAGER: 'cat',
  GIT_EDITOR: 'true',
};

/**
 * Runs git asynchronously in `cwd` with bounded time and bounded output. Never throws: callers
 * read `code`, so a git that is missing, slow or chatty is one more outcome, not a crash.
 */
export function runGit(cwd: string, args: readonly string[], options: GitRunOptions): Promise<GitRun> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    let timedOut = false;
    let stderr = '';
    let settled = false;
    const child = spawn('git', ['-c', 'core.quotepath=off', ...args], {
      cwd,
      env: { ...process.env, ...QUIET_GIT_ENV, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      const room = options.maxOutputBytes - kept;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        kept += room;
        truncated = true;
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
      kept += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEPT_CHARS) stderr = (stderr + chunk.toString()).slice(0, STDERR_KEPT_CHARS);
    });
    const finish = (code: number | null, extra = '') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code: timedOut || truncated ? null : code, stdout: Buffer.concat(chunks), stderr: (stderr + extra).trim(), truncated, timedOut });
    };
    child.once('error', (error) => finish(null, `could not run git: ${error.message}`));
    child.once('close', (code) => finish(code));
  });
}

/** A git run that did not succeed, with what git said: the message callers record or log. */
export class GitFailure extends Error {
  constructor(
    readonly args: readonly string[],
    readonly run: GitRun,
  ) {
    super(`git ${args[0] ?? ''} ${run.timedOut ? 'timed out' : run.truncated ? 'wrote more than its output bound' : `failed (exit ${run.code})`}${run.stderr ? `: ${run.stderr}` : ''}`);
  }
}

/** Runs git and returns its stdout, or throws a GitFailure unless it exited with one of `okCodes`. */
export async function gitOutput(cwd: string, args: readonly string[], options: GitRunOptions, okCodes: readonly number[] = [0]): Promise<GitRun> {
  const run = await runGit(cwd, args, options);
  if (run.code === null || !okCodes.includes(run.code)) throw new GitFailure(args, run);
  return run;
}

/** Splits git's `-z` output into its non-empty fields. */
export function nulFields(output: Buffer): string[] {
  return output
    .toString('utf8')
    .split('\0')
    .filter((field) => field.length > 0);
}
