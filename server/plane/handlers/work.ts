import type { DiffSummary, WorkIntegration } from '../../../contracts/index.js';
import type { Caller } from '../../core/context.js';
import type { FleetCore } from '../../core/fleet-core.js';
import { integrationConfigOf } from '../../core/integration-config.js';
import { workView } from '../../core/orchestration-views.js';
import { nothingCommitted } from '../../core/integration-train.js';
import { branchOfItsOwn } from '../../integration/train/branch-of-its-own.js';
import type { ScopeResolver } from '../repository/scope-resolver.js';
import { updateWork } from '../../core/work-lifecycle.js';
import { budgetsOf, configureWork } from '../../core/work-budgets.js';
import { addWork, pullWork } from '../../core/work-queue.js';
import { diffSummaryOf } from '../repository/diff-summary.js';
import { readWorktreeFacts } from '../repository/worktree-facts.js';
import { readArtifact } from '../../core/work-artifacts.js';
import { removeWork } from '../../core/work-removal.js';
import { page } from '../rpc/pager.js';
import type { HandlerTable } from './handler.js';
import { workList } from './paged-lists.js';

/** The branch of its own the completing builder's registered worktree is on, if any (DESIGN §16). */
async function completedBranch(core: FleetCore, scopes: ScopeResolver, caller: Caller, itemId: string): Promise<WorkIntegration | undefined> {
  const worktree = caller.kind === 'agent' ? core.state.agents.get(caller.agentId)?.worktree : undefined;
  const item = core.state.work.get(itemId);
  if (worktree === undefined || item?.scope === undefined) return undefined;
  let repository: string;
  try {
    const scope = scopes.resolve(worktree);
    if (scope.id !== item.scope) return undefined;
    repository = scope.gitDir;
  } catch {
    return undefined;
  }
  return branchOfItsOwn(worktree, repository, integrationConfigOf(core.state, item.scope).target);
}

/** What changed in the completing builder's registered worktree since the item's start commit. */
async function changedSinceStart(core: FleetCore, caller: Caller, itemId: string): Promise<DiffSummary | undefined> {
  const worktree = caller.kind === 'agent' ? core.state.agents.get(caller.agentId)?.worktree : undefined;
  const since = core.state.work.get(itemId)?.startCommit;
  return worktree !== undefined && since !== undefined ? diffSummaryOf(worktree, since) : undefined;
}

export const workHandlers = {
  fleet_work_add: (params, session, { core, scopes }) => {
    const { root, scope: named, paths, ...rest } = params;
    const scope = (paths?.length ?? 0) > 0 || root !== undefined || named !== undefined ? scopes.forCall({ root, scope: named }) : undefined;
    const relative = scope && paths?.map((p) => scopes.markDirectory(scope, scopes.toRelative(scope, p)));
    return core.run(session.caller, (ctx) => {
      const item = addWork(ctx, session.caller, { ...rest, ...(scope && { scope: scope.id, paths: relative }) });
      return { item: { id: item.id, status: item.status } };
    });
  },

  fleet_work_pull: async (_params, session, { core }) => {
    // git runs before the core does (never inside it): the worktree the agent registered at join.
    const worktree = session.caller.kind === 'agent' ? core.state.agents.get(session.caller.agentId)?.worktree : undefined;
    const facts = await readWorktreeFacts(worktree);
    return core.run(session.caller, (ctx) => {
      const { item, claims, refusedBy, guidance } = pullWork(ctx, session.caller, core.queue, facts);
      return { item: item && workView(item, ctx.state), claims, ...(refusedBy && { refusedBy }), ...(guidance && { guidance }) };
    });
  },

  fleet_work_update: async (params, session, { core, scopes, train }) => {
    // git runs before the core does: a completion on a branch of its own records that branch, and every completion what changed.
    const [integration, diffSummary] = params.action === 'complete' ? await Promise.all([completedBranch(core, scopes, session.caller, params.id), changedSinceStart(core, session.caller, params.id)]) : [];
    const outcome = core.run(session.caller, (ctx) => {
      const { id, ...update } = params;
      const { item, clarificationId } = updateWork(ctx, session.caller, id, update.action === 'complete' ? { ...update, ...(integration && { integration }), ...(diffSummary && { diffSummary }) } : update);
      const warning = integration && nothingCommitted(integration) ? `nothing is committed on ${integration.branch} beyond ${integration.target}: the train lands commits, not edits in the worktree; commit your work and complete again` : undefined;
      return { item: { id: item.id, status: item.status }, ...(clarificationId !== undefined && { clarificationId }), ...(warning !== undefined && { warning }) };
    });
    // An accept may have queued the item (land on accept), a rollback its revert.
    if (params.action === 'decide') train.kick();
    return outcome;
  },

  fleet_work_configure: (params, session, { core }) =>
    core.run(session.caller, (ctx) => {
      const item = configureWork(ctx, session.caller, params);
      return { settings: { ...ctx.state.workSettings }, ...(item && { item: { id: item.id, budgets: budgetsOf(ctx.state, item) } }) };
    }),

  fleet_work_remove: (params, session, { core }) => core.run(session.caller, (ctx) => ({ removed: removeWork(ctx, session.caller, params.ids) })),

  fleet_work_artifact: (params, session, { core }) => core.run(session.caller, (ctx) => ({ artifact: readArtifact(ctx.state, params.id) })),

  fleet_work_list: (params, session, { core }) =>
    core.run(session.caller, (ctx) => page({ items: workList(ctx, params.status, params.id) }, params, ctx.state)),
} satisfies Partial<HandlerTable>;
