import { FINISHED_STATUSES, FleetError, type ClarificationRequest, type WorkStatus } from '../../contracts/index.js';
import { actorName, isOperator, isRteOrOperator, requireAgent } from './authority.js';
import type { Caller, Ctx } from './context.js';
import { isFor, sendMessage } from './messages.js';
import type { WorkRecord } from './orchestration-records.js';
import { answeredRefs, currentRefs, producerOf, seal } from './work-artifacts.js';
import { escalateWork, spentBudget } from './work-budgets.js';
import { latestGuidanceRef } from './work-guidance.js';

export interface ClarificationAsk {
  question: string;
  options: string[];
  /** A callsign; by default the question goes to the RTE. */
  to?: string;
  context?: string;
  confidence?: ClarificationRequest['confidence'];
}

export interface ClarificationAnswer {
  requestId: string;
  chosen: string;
  rationale: string;
  updatedConstraints: string[];
}

const CLOSED = new Set<WorkStatus>([...FINISHED_STATUSES, 'landing', 'escalated']);

/**
 * A clarification round: the question goes out as a REQUEST message about the item, which blocks
 * it until answered (messages.ts holds that rule). Past the item's rounds it escalates instead,
 * carrying the question to the operator. Returns the request's id and whether it escalated.
 */
export function askClarification(ctx: Ctx, caller: Caller, item: WorkRecord, ask: ClarificationAsk): { id: string; escalated: boolean } {
  if (CLOSED.has(item.status)) throw new FleetError('INVALID_STATE', `${item.id} is ${item.status}: no more questions about it${item.status === 'escalated' ? '; it waits for the operator' : ''}`);
  const by = actorName(ctx.state, caller);
  const producer = producerOf(ctx, caller);
  const { question, options, to, context, confidence } = ask;
  const content = { question, options, ...(to !== undefined && { to }), ...(context !== undefined && { context }), ...(confidence !== undefined && { confidence }), askedBy: by, round: item.clarifications.length + 1 };
  const sourceRefs = [latestGuidanceRef(ctx.state, item.id, by), ...currentRefs(item, 'plan', 'artifact', 'report', 'decision'), ...answeredRefs(item)];
  const escalation = spentBudget(ctx, item, 'clarification', by);
  if (escalation) {
    const request = seal(ctx, 'ClarificationRequest', content, { workItem: item.id, producer, sourceRefs });
    escalateWork(ctx, item, { ...escalation, question: request });
    return { id: request.artifactId, escalated: true };
  }
  const optionList = options.length > 0 ? `\nOptions:\n${options.map((o, i) => `${i + 1}. ${o}`).join('\n')}` : '';
  const message = sendMessage(ctx, caller, { to: to !== undefined ? { callsign: to } : { role: 'rte' }, type: 'REQUEST', subject: `clarification on ${item.id}`, body: `${question}${context !== undefined ? `\nContext: ${context}` : ''}${optionList}`, workItem: item.id });
  ctx.emit({ type: 'work.clarification_asked', by, itemId: item.id, request: seal(ctx, 'ClarificationRequest', content, { workItem: item.id, producer, sourceRefs, id: message.id }) });
  return { id: message.id, escalated: false };
}

/**
 * Answers an open round: an RTE, the operator, or the agent it was asked of; the RESOLUTION lifts
 * the block. A question that escalated is the operator's to answer, and the answer returns the
 * item to the status it waited in.
 */
export function answerClarification(ctx: Ctx, caller: Caller, item: WorkRecord, answer: ClarificationAnswer): void {
  const escalated = item.status === 'escalated' ? item.escalation?.question : undefined;
  const round = item.clarifications.find((c) => c.request.id === answer.requestId);
  const request = round?.request ?? (escalated?.id === answer.requestId ? escalated : undefined);
  if (!request) {
    const hint = escalated ? `; the question it escalated with is ${escalated.id}` : '';
    throw new FleetError('NOT_FOUND', `${item.id} has no open clarification request ${answer.requestId}${hint}`);
  }
  if (round?.response) throw new FleetError('INVALID_STATE', `clarification ${answer.requestId} was already answered by ${round.response.answeredBy}`);
  const message = round ? ctx.state.messages.get(answer.requestId) : undefined;
  if (round ? !isRteOrOperator(ctx.state, caller) && !(message && isFor(message, requireAgent(ctx.state, caller))) : !isOperator(ctx.state, caller)) {
    throw new FleetError('FORBIDDEN', round ? `clarification ${answer.requestId} is answered by an RTE, the operator or the agent it was asked of` : `${item.id} escalated to the operator: only the operator answers ${answer.requestId}`);
  }
  if (request.options.length > 0 && !request.options.includes(answer.chosen)) {
    throw new FleetError('INVALID_PARAMS', `chosen must be one of the options offered: ${request.options.join('; ')}`);
  }
  const by = actorName(ctx.state, caller);
  // The asker may have left since: the answer then goes where the question went.
  const to = ctx.indexes.liveCallsigns.has(request.askedBy) ? { callsign: request.askedBy } : (message?.to ?? { role: 'rte' as const });
  sendMessage(ctx, caller, { to, type: 'RESOLUTION', body: `${answer.chosen}\n${answer.rationale}`, refs: round ? [answer.requestId] : [], workItem: item.id });
  const { requestId, chosen, rationale, updatedConstraints } = answer;
  const response = seal(ctx, 'ClarificationResponse', { requestId, chosen, rationale, updatedConstraints, answeredBy: by }, { workItem: item.id, producer: producerOf(ctx, caller), sourceRefs: [requestId] });
  ctx.emit({ type: 'work.clarification_answered', by, itemId: item.id, response });
  if (!round) ctx.emit({ type: 'work.transitioned', by, itemId: item.id, status: item.escalation?.waitedIn ?? 'ready', escalation: null, reason: `the operator answered ${requestId}: ${chosen}` });
}
