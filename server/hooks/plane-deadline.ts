/**
 * How long a PreToolUse hook waits for the plane's answer. A plane answers a hook in milliseconds;
 * one alive but answering nothing (stopped, swapped out, stuck) must not hang the hook past the
 * runtime's own timeout (30 s as installed), because Claude Code and Codex let the tool call
 * through when a hook times out. Past this the hook denies, saying the plane did not answer.
 * (It also bounds starting a plane where none runs, which takes well under a second.)
 */
export const HOOK_PLANE_DEADLINE_MS = 10_000;

/**
 * `work`'s outcome, or `late()`'s once the deadline has passed. The timer holds the process on
 * purpose: work that stalls without a handle of its own would otherwise let the hook exit 0 with
 * nothing said, which both runtimes take as allow.
 */
export function answerWithin<T>(work: Promise<T>, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late()), HOOK_PLANE_DEADLINE_MS);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Why the hook gave up: said in the deny reason the model reads. */
export const PLANE_SILENT = `the plane did not answer within ${HOOK_PLANE_DEADLINE_MS / 1000} s; it may be stopped or overloaded: \`fleet status\` shows whether it answers`;
