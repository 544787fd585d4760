import { basename, dirname } from 'node:path';
import { FleetError } from '../../../contracts/index.js';
import { configureBuild, requestBuild } from '../../core/build-gate.js';
import { buildRunView } from '../../core/orchestration-views.js';
import type { CallScope, Scope } from '../repository/scope-resolver.js';
import type { HandlerTable } from './handler.js';

export const buildHandlers = {
  fleet_build_configure: (params, session, { core, scopes }) => {
    const scope = scopes.forCall(params);
    const worktree = params.worktree ?? mainWorktree(scope);
    if (worktree === undefined) throw new FleetError('INVALID_PARAMS', `no checkout of ${scope.id} to build in${'gitDir' in scope ? ' (it is a bare repository)' : ' is known here'}: pass worktree`);
    return core.run(session.caller, (ctx) => {
      configureBuild(ctx, session.caller, { scope: scope.id, command: params.command, worktree, ...(params.timeoutSeconds !== undefined && { timeoutSeconds: params.timeoutSeconds }) });
      const config = ctx.state.buildConfigs.get(scope.id)!;
      return { scope: config.scope, command: config.command, worktree: config.worktree, timeoutSeconds: config.timeoutSeconds };
    });
  },

  fleet_build_verify: async (params, session, { core, scopes, builds }) => {
    const scope = scopes.forCall(params);
    const run = core.run(session.caller, (ctx) => requestBuild(ctx, session.caller, scope.id));
    builds.kick();
    if (params.wait) await builds.finished(run.id);
    return { run: buildRunView(core.state.buildRuns.get(run.id) ?? run) };
  },
} satisfies Partial<HandlerTable>;

/** The default is the main worktree: the one whose .git is the common dir itself. */
function mainWorktree(scope: CallScope | Scope): string | undefined {
  if (!('gitDir' in scope)) return scope.worktree;
  return basename(scope.gitDir) === '.git' ? dirname(scope.gitDir) : undefined;
}
