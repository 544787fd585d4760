import { FleetError } from '../../../contracts/index.js';
import { bindHookSession, unbindHookSession } from '../../core/hook-sessions.js';
import { agentStatus } from '../../core/liveness.js';
import type { HandlerTable } from './handler.js';
import { findWriterBy } from './hook-writer.js';

/** The session hooks' methods: bind a runtime session to the calling agent, and find who a session writes as. */
export const hookSessionHandlers = {
  fleet_hook_session: (params, session, { core }) =>
    core.run(session.caller, (ctx) => {
      const agent = session.caller.kind === 'agent' ? ctx.state.agents.get(session.caller.agentId) : undefined;
      if (!agent) throw new FleetError('NOT_JOINED', 'join first: a session is bound to the agent this connection joined as');
      const changed = params.bind ? bindHookSession(ctx, agent, params.sessionId) : unbindHookSession(ctx, agent, params.sessionId);
      return { callsign: agent.callsign, sessionId: params.sessionId, bound: params.bind, changed };
    }),

  fleet_hook_writer: (params, session, { core }) =>
    core.run(session.caller, (ctx) => {
      const found = findWriterBy(ctx, { callsign: params.callsign, sessionId: params.sessionId, where: params.worktree });
      return {
        agent: found ? { callsign: found.agent.callsign, status: agentStatus(found.agent, ctx.now, ctx.config) } : null,
        by: found?.by ?? null,
        ...(found?.agent.worktree !== undefined && { worktree: found.agent.worktree }),
      };
    }),
} satisfies Partial<HandlerTable>;
