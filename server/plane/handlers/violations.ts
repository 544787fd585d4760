import { MAX_VIOLATIONS_LISTED } from '../../../contracts/index.js';
import { actorName } from '../../core/authority.js';
import { acknowledgeViolations, violationViews } from '../../core/violations.js';
import type { HandlerTable } from './handler.js';

export const violationHandlers = {
  fleet_violations: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ total: ctx.state.violations.size, violations: violationViews(ctx.state, params.limit ?? MAX_VIOLATIONS_LISTED) })),

  fleet_violation_ack: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ acknowledged: acknowledgeViolations(ctx, actorName(ctx.state, session.caller), params.all ? 'all' : params.ids!) })),

  fleet_worktree_changes: async (params, session, { core, worktrees }) => {
    core.run(session.caller, () => undefined); // any call counts as a heartbeat
    return worktrees.changes(params.worktree, params.since, params.writer, params.source);
  },
} satisfies Partial<HandlerTable>;
