import { FleetError } from '../../../contracts/index.js';
import { agentOfHookSession, bindHookSession, unbindHookSession } from '../../core/hook-sessions.js';
import { agentStatus } from '../../core/liveness.js';
import { recordWait } from '../../core/person-waits.js';
import type { HandlerTable } from './handler.js';
import { findWriterBy, writerHintsFor } from './hook-writer.js';
import { sessionKey } from './session-key.js';

/** The session hooks' methods: bind a runtime session to the calling agent, find who a session writes as, record that its runtime waits for a person. */
export const hookSessionHandlers = {
  fleet_hook_session: (params, session, { core }) =>
    core.run(session.caller, (ctx) => {
      const agent = session.caller.kind === 'agent' ? ctx.state.agents.get(session.caller.agentId) : undefined;
      if (!agent) throw new FleetError('NOT_JOINED', 'join first: a session is bound to the agent this connection joined as');
      const key = sessionKey(params.sessionId);
      // A session speaks for the agent it joined as: nobody else takes it while that agent lives.
      const holder = agentOfHookSession(ctx.state, key);
      if (params.bind && holder && holder.agentId !== agent.agentId) {
        throw new FleetError('FORBIDDEN', `this runtime session already speaks for ${holder.callsign}, which is live: a session is never rebound to another agent (start a new session, or leave as ${holder.callsign} first)`);
      }
      const changed = params.bind ? bindHookSession(ctx, agent, key) : unbindHookSession(ctx, agent, key);
      return { callsign: agent.callsign, sessionId: params.sessionId, bound: params.bind, changed };
    }),

  fleet_hook_writer: (params, session, { core }) =>
    core.run(session.caller, (ctx) => {
      const found = findWriterBy(ctx, writerHintsFor(session.credential, { callsign: params.callsign, sessionId: params.sessionId, runtimePids: params.runtimePids, where: params.worktree }));
      return {
        agent: found ? { callsign: found.agent.callsign, status: agentStatus(found.agent, ctx.now, ctx.config) } : null,
        by: found?.by ?? null,
        ...(found?.agent.worktree !== undefined && { worktree: found.agent.worktree }),
      };
    }),

  fleet_hook_waiting: (params, session, { core }) =>
    core.run(session.caller, (ctx) => {
      const { callsign, sessionId, runtimePids, worktree, hook, reason, message, tool } = params;
      const agent = findWriterBy(ctx, writerHintsFor(session.credential, { callsign, sessionId, runtimePids, where: worktree }))?.agent;
      if (!agent || agent.gone) return { agent: null, recorded: false };
      const recorded = recordWait(ctx, agent, { hook, reason, message, ...(tool !== undefined && { tool }) });
      return { agent: { callsign: agent.callsign, status: agentStatus(agent, ctx.now, ctx.config) }, recorded };
    }),
} satisfies Partial<HandlerTable>;
