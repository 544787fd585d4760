import { MAX_VIOLATIONS_LISTED } from '../../../contracts/index.js';
import { actorName } from '../../core/authority.js';
import { acknowledgeViolations, violationViews } from '../../core/violations.js';
import type { HandlerTable } from './handler.js';
import { markWriter } from './hook-mark.js';
import { writerHintsFor } from './hook-writer.js';

export const violationHandlers = {
  fleet_violations: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ total: ctx.state.violations.size, violations: violationViews(ctx.state, params.limit ?? MAX_VIOLATIONS_LISTED) })),

  fleet_violation_ack: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ acknowledged: acknowledgeViolations(ctx, actorName(ctx.state, session.caller), params.all ? 'all' : params.ids!) })),

  fleet_worktree_changes: async (params, session, { core, worktrees }) => {
    // Any call counts as a heartbeat; a hook's session names its bound agent as the writer (a service token only its own).
    const hints = writerHintsFor(session.credential, { callsign: params.writer, sessionId: params.sessionId });
    const writer = core.run(session.caller, (ctx) => markWriter(ctx, hints));
    return worktrees.changes(params.worktree, params.since, writer, params.source);
  },
} satisfies Partial<HandlerTable>;
