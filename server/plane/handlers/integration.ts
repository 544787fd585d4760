import { FleetError } from '../../../contracts/index.js';
import { configureIntegration, integrationConfigOf } from '../../core/integration-config.js';
import { landingOf, markLanded, queueLanding, requireLandable, trainEntryView } from '../../core/integration-train.js';
import { iso } from '../../core/views.js';
import { resolveCommit } from '../../integration/git/refs.js';
import { targetBranch } from '../../integration/train/branch-of-its-own.js';
import type { HandlerTable } from './handler.js';

export const integrationHandlers = {
  fleet_integrate_configure: (params, session, { core, scopes, train }) => {
    const { root, scope: named, ...settings } = params;
    const scope = scopes.forCall({ root, scope: named });
    const config = core.run(session.caller, (ctx) => configureIntegration(ctx, session.caller, scope.id, settings));
    train.kick();
    return { config };
  },

  fleet_land: async (params, session, { core, scopes, train }) => {
    const { id, branch, done, commit } = params;
    if (done === true) {
      if (id === undefined) throw new FleetError('INVALID_PARAMS', 'done marks a work item landed: pass its id (fleet land --done ITEM)');
      const item = core.run(session.caller, (ctx) => markLanded(ctx, session.caller, id, commit));
      return { item: { id: item.id, status: item.status } };
    }
    if ((id === undefined) === (branch === undefined)) throw new FleetError('INVALID_PARAMS', 'pass either id (a work item to land) or branch (a branch to land by name), not both');
    if (commit !== undefined) throw new FleetError('INVALID_PARAMS', 'commit goes with done; a landing is pinned at the branch\'s current commit');
    const item = id !== undefined ? core.run(session.caller, (ctx) => requireLandable(ctx.state, id)) : undefined;
    const request = item !== undefined ? landingOf(item) : await namedBranch(params, scopes, core, branch!);
    const entry = core.run(session.caller, (ctx) => queueLanding(ctx, session.caller, request));
    train.kick();
    return { ...(item && { item: { id: item.id, status: core.state.work.get(item.id)!.status } }), entry: trainEntryView(entry) };
  },

  fleet_integrate_status: (params, session, { core, scopes }) => {
    const scope = scopes.forCall(params);
    return core.run(session.caller, (ctx) => {
      const config = integrationConfigOf(ctx.state, scope.id);
      const batch = ctx.state.trainBatches.get(scope.id);
      return {
        config,
        ...(batch && { batch: { itemIds: batch.itemIds, base: batch.base, ...(batch.tip !== undefined && { tip: batch.tip }), since: iso(batch.at) } }),
        entries: [...ctx.state.train.values()].filter((e) => e.scope === scope.id).map(trainEntryView),
      };
    });
  },
} satisfies Partial<HandlerTable>;

/** A branch landed by name: pinned at its commit now, for the configured target or the default branch. */
async function namedBranch(params: { root?: string; scope?: string }, scopes: Parameters<HandlerTable['fleet_land']>[2]['scopes'], core: Parameters<HandlerTable['fleet_land']>[2]['core'], branch: string) {
  if (params.root === undefined) throw new FleetError('INVALID_PARAMS', 'landing a branch by name needs root: the repository it lives in');
  const scope = scopes.resolve(params.root);
  const commit = await resolveCommit(scope.gitDir, `refs/heads/${branch}`);
  if (commit === undefined) throw new FleetError('NOT_FOUND', `no branch "${branch}" in ${scope.worktree}: name a local branch (git branch --list)`, { branch });
  const target = await targetBranch(scope.gitDir, integrationConfigOf(core.state, scope.id).target);
  if (target === undefined) throw new FleetError('INVALID_STATE', `the repository at ${scope.worktree} has no default branch (main, master or origin/HEAD): configure one with fleet integrate configure --target BRANCH`);
  if (target === branch) throw new FleetError('INVALID_PARAMS', `"${branch}" is the target itself: land a branch onto it, not the target`);
  return { scope: scope.id, branch, commit, target, repository: scope.gitDir };
}
