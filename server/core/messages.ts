import { FleetError, mentionPattern, type MessageStatus, type MessageType, type ParsedParams } from '../../contracts/index.js';
import { actorName, requireAgent } from './authority.js';
import type { Caller, Ctx } from './context.js';
import { isRecipient } from './handoffs.js';
import type { MessageRecord } from './orchestration-records.js';
import type { AgentRecord } from './state.js';

export type MessageInput = ParsedParams<'fleet_message_send'>;

/** Questions and blockers about a work item hold it until they are resolved. */
const BLOCKING: readonly MessageType[] = ['REQUEST', 'BLOCKER'];
const RESOLVING: readonly MessageType[] = ['RESOLUTION', 'RESPONSE'];

export function sendMessage(ctx: Ctx, caller: Caller, input: MessageInput): MessageRecord {
  const from = actorName(ctx.state, caller);
  if ('callsign' in input.to && !ctx.indexes.liveCallsigns.has(input.to.callsign)) {
    throw new FleetError('NOT_FOUND', `${input.to.callsign} is not on the roster: address a live agent or a role`);
  }
  const item = input.workItem !== undefined ? ctx.state.work.get(input.workItem) : undefined;
  if (input.workItem !== undefined && !item) throw new FleetError('NOT_FOUND', `no work item ${input.workItem}`);
  const mentions = [...new Set([...input.body.matchAll(mentionPattern())].map((m) => m[1]!))].filter((c) => ctx.indexes.liveCallsigns.has(c));
  const messageId = ctx.ids.id('msg');
  ctx.emit({
    type: 'message.sent',
    by: from,
    messageId,
    from,
    to: input.to,
    messageType: input.type,
    priority: input.priority ?? 'normal',
    ...(input.subject !== undefined && { subject: input.subject }),
    body: input.body,
    refs: input.refs ?? [],
    ...(input.workItem !== undefined && { workItem: input.workItem }),
    mentions,
  });
  if (item && BLOCKING.includes(input.type)) {
    ctx.emit({ type: 'work.blockers', by: from, itemId: item.id, blockedBy: [...item.blockedBy, messageId] });
  }
  if (RESOLVING.includes(input.type)) {
    for (const ref of input.refs ?? []) if (ctx.state.messages.get(ref)?.status !== 'PROCESSED') resolve(ctx, ref, from);
  }
  return ctx.state.messages.get(messageId)!;
}

const ORDER: Record<MessageStatus, number> = { PENDING: 0, ACKNOWLEDGED: 1, PROCESSED: 2, BLOCKED: 2 };

/** Moves messages addressed to the caller along PENDING → ACKNOWLEDGED → PROCESSED (or BLOCKED). */
export function ackMessages(ctx: Ctx, caller: Caller, ids: string[], status: Exclude<MessageStatus, 'PENDING'>): MessageRecord[] {
  const agent = requireAgent(ctx.state, caller);
  const messages = ids.map((id) => {
    const message = ctx.state.messages.get(id);
    if (!message) throw new FleetError('NOT_FOUND', `no message ${id}`);
    if (!isFor(message, agent)) throw new FleetError('FORBIDDEN', `message ${id} is not addressed to ${agent.callsign}`);
    const backwards = ORDER[status] < ORDER[message.status] || (ORDER[status] === ORDER[message.status] && status !== message.status);
    // Another recipient may have moved it further: acking then only marks it read for this agent.
    if (backwards && message.ackedBy.includes(agent.callsign)) {
      throw new FleetError('INVALID_STATE', `message ${id} is ${message.status}; it cannot move back to ${status}`);
    }
    return { message, next: backwards ? message.status : status };
  });
  for (const { message, next } of messages) {
    if (message.status === next && message.ackedBy.includes(agent.callsign)) continue;
    if (next === 'PROCESSED' && message.status !== 'PROCESSED') resolve(ctx, message.id, agent.callsign);
    else ctx.emit({ type: 'message.status', by: agent.callsign, messageId: message.id, status: next });
  }
  return messages.map(({ message }) => message);
}

/** Marks a message processed and lifts the block it put on a work item. */
function resolve(ctx: Ctx, messageId: string, by: string): void {
  const message = ctx.state.messages.get(messageId);
  if (!message) return;
  ctx.emit({ type: 'message.status', by, messageId, status: 'PROCESSED' });
  const item = message.workItem !== undefined ? ctx.state.work.get(message.workItem) : undefined;
  if (item?.blockedBy.includes(messageId)) {
    ctx.emit({ type: 'work.blockers', by, itemId: item.id, blockedBy: item.blockedBy.filter((id) => id !== messageId) });
  }
}

export function isFor(message: MessageRecord, agent: AgentRecord): boolean {
  return isRecipient(agent, message.to) || message.mentions.includes(agent.callsign);
}

/** Whether the message is in the agent's inbox: for it, and not its own. */
export const isInInbox = (message: MessageRecord, agent: AgentRecord): boolean => message.from !== agent.callsign && isFor(message, agent);

/** Not yet acknowledged by the agent. */
export const isUnreadBy = (message: MessageRecord, agent: AgentRecord): boolean => !message.ackedBy.includes(agent.callsign);

/** The caller's inbox, newest first; unread = not yet acknowledged by the caller. */
export function inbox(ctx: Ctx, agent: AgentRecord, options: { unreadOnly?: boolean; limit?: number }): { messages: MessageRecord[]; unread: number } {
  const mine = [...ctx.state.messages.values()].filter((m) => isInInbox(m, agent));
  const isUnread = (m: MessageRecord) => isUnreadBy(m, agent);
  const unread = mine.filter(isUnread).length;
  const shown = (options.unreadOnly ? mine.filter(isUnread) : mine).reverse().slice(0, options.limit ?? 50);
  return { messages: shown, unread };
}
