import { FleetError } from '../../contracts/index.js';
import { actorName, isRteOrOperator, requireAgent } from './authority.js';
import type { Caller, Ctx } from './context.js';
import { isFor, sendMessage } from './messages.js';
import type { WorkRecord } from './orchestration-records.js';
import { escalateWork, spentBudget } from './work-budgets.js';

export interface ClarificationAsk {
  question: string;
  options: string[];
  /** A callsign; by default the question goes to the RTE. */
  to?: string;
}

export interface ClarificationAnswer {
  requestId: string;
  chosen: string;
  rationale: string;
  updatedConstraints: string[];
}

const CLOSED = new Set(['done', 'rolled_back', 'escalated']);

/**
 * A clarification round: the question goes out as a REQUEST message about the item, which blocks
 * it until answered (messages.ts holds that rule). Past the item's rounds it escalates instead.
 * Returns the request's id, or undefined when the item escalated.
 */
export function askClarification(ctx: Ctx, caller: Caller, item: WorkRecord, ask: ClarificationAsk): string | undefined {
  if (CLOSED.has(item.status)) throw new FleetError('INVALID_STATE', `${item.id} is ${item.status}: no more questions about it${item.status === 'escalated' ? '; it waits for the operator' : ''}`);
  const by = actorName(ctx.state, caller);
  const escalation = spentBudget(ctx, item, 'clarification', by);
  if (escalation) {
    escalateWork(ctx, item, escalation);
    return undefined;
  }
  const options = ask.options.length > 0 ? `\nOptions:\n${ask.options.map((o, i) => `${i + 1}. ${o}`).join('\n')}` : '';
  const message = sendMessage(ctx, caller, { to: ask.to !== undefined ? { callsign: ask.to } : { role: 'rte' }, type: 'REQUEST', subject: `clarification on ${item.id}`, body: `${ask.question}${options}`, workItem: item.id });
  ctx.emit({ type: 'work.clarification_asked', by, itemId: item.id, request: { id: message.id, question: ask.question, options: ask.options, ...(ask.to !== undefined && { to: ask.to }), askedBy: by, round: item.clarifications.length + 1 } });
  return message.id;
}

/** Answers an open round: an RTE, the operator, or the agent it was asked of; the RESOLUTION lifts the block. */
export function answerClarification(ctx: Ctx, caller: Caller, item: WorkRecord, answer: ClarificationAnswer): void {
  const round = item.clarifications.find((c) => c.request.id === answer.requestId);
  if (!round) throw new FleetError('NOT_FOUND', `${item.id} has no clarification request ${answer.requestId}`);
  if (round.response) throw new FleetError('INVALID_STATE', `clarification ${answer.requestId} was already answered by ${round.response.answeredBy}`);
  const message = ctx.state.messages.get(answer.requestId);
  if (!isRteOrOperator(ctx.state, caller) && !(message && isFor(message, requireAgent(ctx.state, caller)))) {
    throw new FleetError('FORBIDDEN', `clarification ${answer.requestId} is answered by an RTE, the operator or the agent it was asked of`);
  }
  if (round.request.options.length > 0 && !round.request.options.includes(answer.chosen)) {
    throw new FleetError('INVALID_PARAMS', `chosen must be one of the options offered: ${round.request.options.join('; ')}`);
  }
  const by = actorName(ctx.state, caller);
  // The asker may have left since: the answer then goes where the question went.
  const to = ctx.indexes.liveCallsigns.has(round.request.askedBy) ? { callsign: round.request.askedBy } : (message?.to ?? { role: 'rte' as const });
  sendMessage(ctx, caller, { to, type: 'RESOLUTION', body: `${answer.chosen}\n${answer.rationale}`, refs: [answer.requestId], workItem: item.id });
  const { requestId, chosen, rationale, updatedConstraints } = answer;
  ctx.emit({ type: 'work.clarification_answered', by, itemId: item.id, response: { requestId, chosen, rationale, updatedConstraints, answeredBy: by } });
}
