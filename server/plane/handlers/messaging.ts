import { INBOX_PAGE_SIZE } from '../../../contracts/index.js';
import { requireAgent } from '../../core/authority.js';
import { respondHandoff, sendHandoff } from '../../core/handoffs.js';
import { ackMessages, isInInbox, isUnreadBy, sendMessage } from '../../core/messages.js';
import { handoffView, messageView } from '../../core/orchestration-views.js';
import { page } from '../rpc/pager.js';
import type { HandlerTable } from './handler.js';
import { inboxList, pendingHandoffList } from './paged-lists.js';

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
      let unread = 0;
      for (const message of ctx.state.messages.values()) if (isInInbox(message, agent) && isUnreadBy(message, agent)) unread++;
      const lists = { messages: inboxList(ctx, agent, params.unreadOnly), handoffs: pendingHandoffList(ctx, agent) };
      return { unread, ...page(lists, { cursor: params.cursor, limit: params.limit ?? INBOX_PAGE_SIZE }) };
    }),

  fleet_message_send: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ message: messageView(sendMessage(ctx, session.caller, params)) })),

  fleet_message_ack: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ messages: ackMessages(ctx, session.caller, params.messageIds, params.status).map(messageView) })),
} satisfies Partial<HandlerTable>;
