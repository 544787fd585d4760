import { FleetError } from '../../../contracts/index.js';
import { configureIntegration, integrationConfigOf } from '../../core/integration-config.js';
import { landingOf, markLanded, queueLanding, requireLandable, trainEntryView } from '../../core/integration-train.js';
import { iso } from '../../core/views.js';
import { resolveCommit } from '../../integration/git/refs.js';
import { targetBranch } from '../../integration/train/branch-of-its-own.js';
import { hasRemote, isAncestor, isBranchName } from '../../integration/train/train-git.js';
import type { Scope } from '../repository/scope-resolver.js';
import type { HandlerTable } from './handler.js';

/** How much of a running build's output `fleet integrate status` shows. */
const LIVE_LOG_CHARS = 4000;

export const trainHandlers = {
  fleet_integrate_configure: async (params, session, { core, scopes, train }) => {
    const { root, scope: named, ...settings } = params;
    const scope = scopes.forCall({ root, scope: named });
    const repository = 'gitDir' in scope ? (scope as Scope).gitDir : undefined;
    if (settings.target !== undefined && !(await isBranchName(repository ?? process.cwd(), settings.target))) {
      throw new FleetError('INVALID_PARAMS', `target "${settings.target}" is not a branch name git accepts (git check-ref-format): name a branch such as main`, { target: settings.target });
    }
    if (settings.remote !== undefined && (repository === undefined || !(await hasRemote(repository, settings.remote)))) {
      throw new FleetError('INVALID_PARAMS', `no remote "${settings.remote}" in this repository: name one that git remote -v lists`, { remote: settings.remote });
    }
    const config = core.run(session.caller, (ctx) => configureIntegration(ctx, session.caller, scope.id, settings));
    train.kick();
    return { config };
  },

  fleet_land: async (params, session, { core, scopes, train }) => {
    const { ids, branch, done, commit } = params;
    if (done === true) {
      if (ids === undefined || branch !== undefined) throw new FleetError('INVALID_PARAMS', 'done marks work items landed by hand: pass their ids (fleet land --done ITEM…)');
      const landedAs = commit === undefined ? new Map<string, string>() : await landedCommits(core, ids, commit);
      const items = core.run(session.caller, (ctx) => ids.map((id) => markLanded(ctx, session.caller, id, landedAs.get(id))));
      return { items: items.map((item) => ({ id: item.id, status: item.status })), entries: [] };
    }
    if ((ids === undefined) === (branch === undefined)) throw new FleetError('INVALID_PARAMS', 'pass either ids (work items to land) or branch (a branch to land by name), not both');
    if (commit !== undefined) throw new FleetError('INVALID_PARAMS', "commit goes with done; a landing is pinned at the commit the item was completed and verified at");
    const requests = ids !== undefined ? core.run(session.caller, (ctx) => ids.map((id) => landingOf(requireLandable(ctx.state, id)))) : [await namedBranch(params, scopes, core, branch!)];
    const entries = core.run(session.caller, (ctx) => requests.map((request) => queueLanding(ctx, session.caller, request)));
    train.kick();
    const items = (ids ?? []).map((id) => ({ id, status: core.state.work.get(id)!.status }));
    return { items, entries: entries.map(trainEntryView) };
  },

  fleet_integrate_status: (params, session, { core, scopes, train }) => {
    const scope = scopes.forCall(params);
    const logTail = train.liveLog(scope.id)?.slice(-LIVE_LOG_CHARS);
    return core.run(session.caller, (ctx) => {
      const config = integrationConfigOf(ctx.state, scope.id);
      const batch = ctx.state.trainBatches.get(scope.id);
      return {
        config,
        ...(batch && { batch: { itemIds: batch.itemIds, base: batch.base, ...(batch.tip !== undefined && { tip: batch.tip }), since: iso(batch.at), ...(logTail !== undefined && { logTail }) } }),
        entries: [...ctx.state.train.values()].filter((e) => e.scope === scope.id).map(trainEntryView),
      };
    });
  },
} satisfies Partial<HandlerTable>;

/**
 * `--done --commit X`: X resolved to a full commit id on each item's target (an ancestor of it), so a
 * later rollback reverts exactly that landing and never whatever a name points at by then.
 */
async function landedCommits(core: Parameters<HandlerTable['fleet_land']>[2]['core'], ids: readonly string[], commit: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const id of ids) {
    const integration = core.state.work.get(id)?.integration;
    if (integration === undefined) throw new FleetError('INVALID_PARAMS', `${id} was not built on a branch of its own, so the plane has no target to check the commit "${commit}" against: mark it landed without --commit`, { id });
    const full = await resolveCommit(integration.repository, commit);
    if (full === undefined) throw new FleetError('INVALID_PARAMS', `"${commit}" names no commit in ${integration.repository}: pass the id of the commit on ${integration.target} that landed ${id}`, { commit });
    if (!(await isAncestor(integration.repository, full, `refs/heads/${integration.target}`))) {
      throw new FleetError('INVALID_PARAMS', `${full.slice(0, 12)} ("${commit}") is not on ${integration.target}: pass the commit on the target that landed ${id} (git log ${integration.target})`, { commit });
    }
    // A rollback reverts this commit: it must be one that brought the item's work, not any commit of the target.
    if (!(await isAncestor(integration.repository, integration.commit, full))) {
      throw new FleetError('INVALID_PARAMS', `${full.slice(0, 12)} ("${commit}") does not contain ${id}'s commit ${integration.commit.slice(0, 12)}: pass the merge that brought it onto ${integration.target} (git log --merges ${integration.target}), or mark it landed without --commit (a squash or rebase has no such commit)`, { commit });
    }
    found.set(id, full);
  }
  return found;
}

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
