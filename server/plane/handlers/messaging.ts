import { requireAgent } from '../../core/authority.js';
import { respondHandoff, sendHandoff } from '../../core/handoffs.js';
import { ackMessages, inbox, sendMessage } from '../../core/messages.js';
import { handoffView, messageView } from '../../core/orchestration-views.js';
import { isRecipient } from '../../core/handoffs.js';
import type { HandlerTable } from './handler.js';

export const messagingHandlers = {
  fleet_agent_handoff: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ handoff: handoffView(sendHandoff(ctx, session.caller, params)) })),

  fleet_handoff_respond: (params, session, { core }) =>
    core.run(session.caller, (ctx) => {
      const { handoff, claims } = respondHandoff(ctx, session.caller, params);
      return { handoff: handoffView(handoff), claims };
    }),

  fleet_inbox: (params, session, { core }) =>
    core.run(session.caller, (ctx) => {
      const agent = requireAgent(ctx.state, session.caller);
      const { messages, unread } = inbox(ctx, agent, params);
      const handoffs = [...ctx.state.handoffs.values()].filter((h) => h.status === 'pending' && isRecipient(agent, h.envelope.to));
      return { messages: messages.map(messageView), unread, handoffs: handoffs.map(handoffView) };
    }),

  fleet_message_send: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ message: messageView(sendMessage(ctx, session.caller, params)) })),

  fleet_message_ack: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ messages: ackMessages(ctx, session.caller, params.messageIds, params.status).map(messageView) })),
} satisfies Partial<HandlerTable>;
