import { workView } from '../../core/orchestration-views.js';
import { updateWork } from '../../core/work-lifecycle.js';
import { budgetsOf, configureWork } from '../../core/work-budgets.js';
import { addWork, pullWork } from '../../core/work-queue.js';
import { readWorktreeFacts } from '../repository/worktree-facts.js';
import { readArtifact } from '../../core/work-artifacts.js';
import { removeWork } from '../../core/work-removal.js';
import { page } from '../rpc/pager.js';
import type { HandlerTable } from './handler.js';
import { workList } from './paged-lists.js';

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

  fleet_work_update: (params, session, { core }) =>
    core.run(session.caller, (ctx) => {
      const { id, ...update } = params;
      const { item, clarificationId } = updateWork(ctx, session.caller, id, update);
      return { item: { id: item.id, status: item.status }, ...(clarificationId !== undefined && { clarificationId }) };
    }),

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
