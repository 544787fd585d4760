import { setControl } from '../../core/control.js';
import { lease } from '../../core/leases.js';
import { readMemos, writeMemo } from '../../core/memos.js';
import { controlView, memoView } from '../../core/views.js';
import type { Handler } from './handler.js';

export const rteLease: Handler<'fleet_rte_lease'> = (params, session, { core }) => core.run(session.caller, (ctx) => lease(ctx, session.caller, params));

export const memoWrite: Handler<'fleet_agent_memo_write'> = (params, session, { core }) =>
  core.run(session.caller, (ctx) => {
    const { written, memo } = writeMemo(ctx, session.caller, params);
    return { written, memo: memo ? memoView(memo) : null };
  });

export const memoRead: Handler<'fleet_memo_read'> = (params, session, { core }) =>
  core.run(session.caller, (ctx) => ({ memos: readMemos(ctx, params).map(memoView) }));

export const controlGet: Handler<'fleet_control_get'> = (_params, session, { core }) =>
  core.run(session.caller, (ctx) => controlView(ctx.state.control));

export const controlSet: Handler<'fleet_control_set'> = (params, session, { core }) =>
  core.run(session.caller, (ctx) => {
    setControl(ctx, session.caller, params.state, params.reason);
    return controlView(ctx.state.control);
  });
