import { runHookCheck } from './hook-check.js';
import { hookEnvironment } from './hook-check-request.js';
import type { OpenHookPlane } from './hook-plane.js';
import { stagedPaths, worktreeRoot } from './git.js';
import { answerWithin } from './plane-deadline.js';
import { explainRefusal } from './refusal-message.js';

/**
 * `fleet hook git-pre-commit`: the staged paths against the committing agent's territory (FLEET_AS,
 * else the agent registered at this worktree, else the check for a person). Returns the exit code:
 * non-zero refuses the commit, with the reason on stderr.
 */
export async function gitPreCommit(home: string, cwd: string, env: NodeJS.ProcessEnv, stderr: (text: string) => void, open: OpenHookPlane): Promise<number> {
  const root = worktreeRoot(cwd);
  if (root === undefined) {
    stderr(`fleet: ${cwd} is not inside a git repository, so there is no commit to check\n`);
    return 1;
  }
  const paths = stagedPaths(root);
  if (paths.length === 0) return 0;
  const { callsign, override } = hookEnvironment(env);
  try {
    const check = runHookCheck({
      home,
      hook: 'git-pre-commit',
      root,
      paths,
      worktree: root,
      ...(callsign !== undefined && { callsign }),
      ...(override !== undefined && { override }),
    }, open);
    // git waits on its hook for ever: a plane that does not answer refuses the commit, saying so.
    const verdict = await answerWithin(home, check, (why) => {
      throw new Error(why);
    });
    if (verdict.allowed) return 0;
    const refused = verdict.results.filter((r) => !r.allowed).length;
    if (verdict.overridden) {
      stderr(`fleet: FLEET_OVERRIDE let ${refused} path${refused === 1 ? '' : 's'} outside the territory through; recorded as override.used ("${override}")\n`);
      return 0;
    }
    stderr(`${explainRefusal(verdict, { hook: 'git-pre-commit' })}\n`);
    return 1;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (override !== undefined) {
      stderr(`fleet: the territory check failed (${message}); FLEET_OVERRIDE lets the commit through, but it could not be recorded\n`);
      return 0;
    }
    stderr(`fleet: commit refused: the staged paths could not be checked against the fleet's territory: ${message}\nFix the cause, or let it through with FLEET_OVERRIDE="<reason>" (recorded) or git commit --no-verify.\n`);
    return 1;
  }
}
