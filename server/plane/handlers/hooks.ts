import { dirname, isAbsolute, relative } from 'node:path';
import type { z } from 'zod';
import { FleetError, MAX_TOUCHED_PATH_CONFLICTS, type ForecastConflict } from '../../../contracts/index.js';
import type { hookCheck as hookCheckSpec } from '../../../contracts/methods/hooks.js';
import type { Caller } from '../../core/context.js';
import type { Ctx } from '../../core/context.js';
import { touchedPathConflicts } from '../../core/integration-forecast.js';
import { agentStatus } from '../../core/liveness.js';
import { checkPaths } from '../../core/path-check.js';
import { existingDirectory, realPath } from '../../gate/real-path.js';
import type { CallScope, ScopeResolver } from '../repository/scope-resolver.js';
import type { Session } from '../rpc/session.js';
import type { PlaneServices } from './handler.js';
import { hookCheckCommand } from './hook-command.js';
import { hookCallWriter, markForAllowedCall } from './hook-mark.js';
import { hookSessionHandlers } from './hook-sessions.js';
import { recordOverrides, writerHintsFor } from './hook-writer.js';

type Params = z.infer<typeof hookCheckSpec.params>;
type Body = Omit<z.infer<typeof hookCheckSpec.result>, 'control'>;

/** Typed from the spec itself, so it compiles before and after the method joins the table. */
export const hookCheck = async (params: Params, session: Session, { core, scopes, worktrees }: PlaneServices): Promise<Body> => {
  const scope = scopes.forCall(params);
  const located = params.paths.map((p) => locate(scopes, scope, p));
  let writerId: string | undefined;
  let marker: string | undefined;
  const verdict = core.run(session.caller, (ctx) => {
    const found = hookCallWriter(ctx, writerHintsFor(session.credential, { callsign: params.callsign, sessionId: params.sessionId, runtimePids: params.runtimePids, where: params.worktree }), params.hook);
    const agent = found.agent;
    writerId = agent?.agentId;
    marker = found.marker;
    const writer: Caller = agent ? { kind: 'agent', agentId: agent.agentId } : session.caller;
    const results = located.map((at) => {
      // A link out of every repository writes a file that is nobody's territory.
      if (at.outside !== undefined) return { path: at.outside, allowed: true, holders: [] };
      // Nobody found writes as a person: what no agent holds is free, what one holds is refused.
      return checkPaths(ctx, writer, at.scope.id, [at.relative])[0]!;
    });
    const allowed = results.every((r) => r.allowed);
    const overridden = !allowed && params.override !== undefined;
    if (overridden) recordOverrides(ctx, agent, results.filter((r) => !r.allowed).map((r) => r.path), params.override!, params.hook);
    // A runtime's file tool about to write: the forecast among its files comes with the verdict (no question of its own).
    const conflicts = allowed && params.fromRuntime && params.hook.endsWith('pre-tool-use') ? forecastAmong(ctx, located) : [];
    return {
      agent: agent ? { callsign: agent.callsign, status: agentStatus(agent, ctx.now, ctx.config) } : null,
      allowed,
      overridden,
      results,
      ...(conflicts.length > 0 && { conflicts }),
    };
  });
  // A runtime's file tool writes what it was allowed next: the watcher then knows whose change that is.
  if (writerId !== undefined && verdict.allowed && params.fromRuntime && params.hook.endsWith('pre-tool-use')) {
    worktrees.expectWrites(writerId, located.flatMap((at) => (at.outside === undefined && at.real !== undefined ? [at.real] : [])));
  }
  return params.mark && (verdict.allowed || verdict.overridden) ? { ...verdict, mark: await markForAllowedCall(worktrees, params.mark, marker) } : verdict;
};

/**
 * The forecast conflicts among the located files of the branch checked out where each one is (the
 * write-set of its worktree, repository-relative there), whoever writes: as PostToolUse's note after
 * a shell call, it is about that branch's merge.
 */
function forecastAmong(ctx: Ctx, located: ReturnType<typeof locate>[]): ForecastConflict[] {
  const files = located.flatMap((at) => (at.outside === undefined && at.real !== undefined ? [at.real] : []));
  return [...ctx.state.writeSets.values()]
    .flatMap((writeSet) => {
      const paths = files.map((file) => relative(writeSet.worktree, file)).filter((path) => path !== '' && path !== '..' && !path.startsWith('../') && !isAbsolute(path));
      return touchedPathConflicts(ctx.state, [writeSet.agentId], paths, MAX_TOUCHED_PATH_CONFLICTS);
    })
    .slice(0, MAX_TOUCHED_PATH_CONFLICTS);
}

/**
 * An absolute path is checked as its real path, in the repository that path is really in: a
 * symlink in my territory pointing into yours is your file; one outside the repository pointing
 * in is the inside file. Relative paths (the git hook's staged paths) are the root's.
 */
function locate(scopes: ScopeResolver, rootScope: CallScope, path: string): { scope: CallScope; relative: string; real?: string; outside?: undefined } | { outside: string } {
  if (!isAbsolute(path)) return { scope: rootScope, relative: scopes.toRelative(rootScope, path) };
  const real = realPath(path);
  const inRoot = rootScope.worktree === undefined ? '..' : scopes.relativePath({ worktree: rootScope.worktree }, real);
  if (inRoot !== '' && !inRoot.startsWith('../') && inRoot !== '..') return { scope: rootScope, relative: inRoot, real };
  try {
    const scope = scopes.resolve(existingDirectory(dirname(real)));
    return { scope, relative: scopes.toRelative(scope, real), real };
  } catch (error) {
    if (error instanceof FleetError && error.errorName === 'OUTSIDE_REPOSITORY') return { outside: real };
    throw error;
  }
}

/** This feature's keyed table, merged by the index like the others. */
export const hookHandlers = { fleet_hook_check: hookCheck, fleet_hook_check_command: hookCheckCommand, ...hookSessionHandlers };
