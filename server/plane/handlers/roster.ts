import { FleetError } from '../../../contracts/index.js';
import { join, heartbeat, leave } from '../../core/roster.js';
import { agentView } from '../../core/views.js';
import { page } from '../rpc/pager.js';
import { serviceJoin } from '../remote/service-join.js';
import type { HandlerTable } from './handler.js';
import { agentList } from './paged-lists.js';

export const rosterHandlers = {
  fleet_agent_join: (requested, session, { core, registerPid, tokens }) => {
    const params = typeof session.credential === 'object' ? serviceJoin(requested, session.credential, tokens) : requested;
    if (session.caller.kind === 'agent') {
      const current = core.state.agents.get(session.caller.agentId);
      if (current && !current.gone && current.callsign !== params.callsign) {
        throw new FleetError('ALREADY_JOINED', `this connection already acts as ${current.callsign}: open a new connection to act as ${params.callsign}`);
      }
    }
    const start = params.pid !== undefined ? registerPid(params.pid) : undefined;
    const outcome = core.run(session.caller, (ctx) => join(ctx, { ...params, ...(start !== undefined && { pidStart: start }) }, session.credential));
    session.caller = { kind: 'agent', agentId: outcome.agentId };
    return outcome;
  },

  fleet_agent_heartbeat: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ agent: agentView(heartbeat(ctx, session.caller, params), ctx.indexes, ctx.now, ctx.config) })),

  fleet_agent_leave: (_params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ left: true, released: leave(ctx, session.caller) })),

  fleet_roster: (params, session, { core }) => core.run(session.caller, (ctx) => page({ agents: agentList(ctx, params.includeGone) }, params, ctx.state)),
} satisfies Partial<HandlerTable>;
