import { setControl } from '../../core/control.js';
import { lease } from '../../core/leases.js';
import { readMemos, writeMemo } from '../../core/memos.js';
import { controlView, memoView } from '../../core/views.js';
import type { HandlerTable } from './handler.js';

export const coordinationHandlers = {
  fleet_rte_lease: (params, session, { core }) => core.run(session.caller, (ctx) => lease(ctx, session.caller, params)),

  fleet_agent_memo_write: (params, session, { core }) =>
    core.run(session.caller, (ctx) => {
      const { written, memo } = writeMemo(ctx, session.caller, params);
      return { written, memo: memo ? memoView(memo) : null };
    }),

  fleet_memo_read: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ memos: readMemos(ctx, params).map(memoView) })),

  fleet_control_get: (_params, session, { core }) =>
    core.run(session.caller, (ctx) => controlView(ctx.state.control)),

  fleet_control_set: (params, session, { core }) =>
    core.run(session.caller, (ctx) => {
      setControl(ctx, session.caller, params.state, params.reason);
      return controlView(ctx.state.control);
    }),
} satisfies Partial<HandlerTable>;
