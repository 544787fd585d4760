import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homePaths } from '../home/paths.js';

/**
 * How long a hook waits for the plane's answer. A plane answers a hook in milliseconds; one alive
 * but answering nothing (stopped, swapped out, stuck) must not hang the hook past the runtime's own
 * timeout (30 s as installed), because Claude Code and Codex let the tool call through when a hook
 * times out, and git waits on its pre-commit hook for ever. Past this the hook gives its answer for
 * a silent plane (a deny, a refused commit, a session told why). (It also bounds starting a plane
 * where none runs, which takes well under a second.)
 */
export const HOOK_PLANE_DEADLINE_MS = 10_000;

/**
 * Once a hook missed the deadline, the next ones wait this long only, until one gets an answer in
 * time: a plane that stays stopped must not cost every tool call of every agent 10 s. A plane that
 * answers at all answers a hook well inside it.
 */
export const UNANSWERED_PLANE_DEADLINE_MS = 1_500;

/**
 * The note of a missed deadline in FLEET_HOME (plane-unanswered.json): which plane (its pid in
 * plane.json) and when. It holds for that plane only: a plane started since gets the full deadline.
 */
interface Unanswered {
  pid: number;
  at: string;
}

/**
 * `work`'s outcome, or `late(why)`'s once the deadline has passed (`late` may throw: the hook's
 * failure path then says why). The deadline is the short one while this home's plane is noted as
 * unanswering; a miss notes it, an answer in time clears the note. The timer holds the process on
 * purpose: work that stalls without a handle of its own would otherwise let the hook exit 0 with
 * nothing said, which both runtimes take as allow.
 */
export function answerWithin<T>(home: string, work: Promise<T>, late: (why: string) => T): Promise<T> {
  const plane = planePid(home);
  const missed = lastMiss(home, plane);
  const ms = missed ? UNANSWERED_PLANE_DEADLINE_MS : HOOK_PLANE_DEADLINE_MS;
  let timer: NodeJS.Timeout | undefined;
  let passed = false;
  const deadline = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      passed = true;
      if (plane !== undefined) noteMiss(home, { pid: plane, at: missed?.at ?? new Date().toISOString() });
      try {
        resolve(late(silence(ms, missed)));
      } catch (error) {
        reject(error as Error);
      }
    }, ms);
  });
  const answered = work.finally(() => {
    clearTimeout(timer);
    if (missed && !passed) clearMiss(home);
  });
  return Promise.race([answered, deadline]).finally(() => clearTimeout(timer));
}

/** Why the hook gave up: said in the deny reason the model reads (and in a refused commit, a session's context). */
function silence(ms: number, missed: Unanswered | undefined): string {
  const since = missed ? ` (nor any hook since ${missed.at}, so hooks now wait ${ms / 1000} s instead of ${HOOK_PLANE_DEADLINE_MS / 1000} s until it answers again)` : '';
  return `the plane did not answer within ${ms / 1000} s${since}; it may be stopped or overloaded: \`fleet status\` shows whether it answers`;
}

/** The pid plane.json names, while that process lives: a plane that is gone is no silent plane (the hook starts another). */
function planePid(home: string): number | undefined {
  let pid: unknown;
  try {
    pid = (JSON.parse(readFileSync(homePaths(home).discovery, 'utf8')) as { pid?: unknown }).pid;
  } catch {
    return undefined;
  }
  return typeof pid === 'number' && alive(pid) ? pid : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // another user's plane
  }
}

/** The note of the last miss, if it is about the plane running now. */
function lastMiss(home: string, plane: number | undefined): Unanswered | undefined {
  try {
    const note = JSON.parse(readFileSync(homePaths(home).planeUnanswered, 'utf8')) as Partial<Unanswered> | null;
    return plane !== undefined && note?.pid === plane && typeof note?.at === 'string' ? { pid: plane, at: note.at } : undefined;
  } catch {
    return undefined;
  }
}

// Best effort both: a hook that cannot write FLEET_HOME (another user's) just keeps the full deadline.
function noteMiss(home: string, note: Unanswered): void {
  try {
    writeFileSync(homePaths(home).planeUnanswered, JSON.stringify(note), { mode: 0o600 });
  } catch {
    // noted nowhere: the next hook waits the full deadline again
  }
}

function clearMiss(home: string): void {
  try {
    rmSync(homePaths(home).planeUnanswered, { force: true });
  } catch {
    // another user's note: it goes when the next hook of that user gets an answer
  }
}
