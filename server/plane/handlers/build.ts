import { basename, dirname } from 'node:path';
import { FleetError } from '../../../contracts/index.js';
import { configureBuild, requestBuild } from '../../core/build-gate.js';
import { buildRunView } from '../../core/orchestration-views.js';
import type { HandlerTable } from './handler.js';

export const buildHandlers = {
  fleet_build_configure: (params, session, { core, scopes }) => {
    const scope = scopes.resolve(params.root);
    // The default is the main worktree: the one whose .git is the common dir itself.
    const worktree = params.worktree ?? (basename(scope.id) === '.git' ? dirname(scope.id) : undefined);
    if (worktree === undefined) throw new FleetError('INVALID_PARAMS', `${scope.id} is a bare repository: pass worktree, the checkout to build in`);
    return core.run(session.caller, (ctx) => {
      configureBuild(ctx, session.caller, { scope: scope.id, command: params.command, worktree, ...(params.timeoutSeconds !== undefined && { timeoutSeconds: params.timeoutSeconds }) });
      const config = ctx.state.buildConfigs.get(scope.id)!;
      return { scope: config.scope, command: config.command, worktree: config.worktree, timeoutSeconds: config.timeoutSeconds };
    });
  },

  fleet_build_verify: async (params, session, { core, scopes, builds }) => {
    const scope = scopes.resolve(params.root);
    const run = core.run(session.caller, (ctx) => requestBuild(ctx, session.caller, scope.id));
    builds.kick();
    if (params.wait) await builds.finished(run.id);
    return { run: buildRunView(core.state.buildRuns.get(run.id) ?? run) };
  },
} satisfies Partial<HandlerTable>;
