import { FINISHED_STATUSES, type Digest } from '../../contracts/index.js';
import type { WorkRecord } from './orchestration-records.js';
import type { State } from './state.js';
import { budgetsOf, spentOf } from './work-budgets.js';


/** The digest's view of the work protocol: what waits for the operator, and which loops are running out of rounds. */
export function workProtocolDigest(state: State): Pick<Digest, 'escalations' | 'budgetsSpent'> {
  const escalations: Digest['escalations'] = [];
  const budgetsSpent: Digest['budgetsSpent'] = [];
  for (const item of state.work.values()) {
    if (item.status === 'escalated') {
      const { id, title } = item;
      if (!item.escalation) escalations.push({ id, title, by: item.decidedBy ?? '?', ...(item.statusReason !== undefined && { reason: item.statusReason }) });
      else {
        const { budget, spent, limit, by, question: q } = item.escalation;
        const question = q && { requestId: q.id, question: q.question, ...(q.context !== undefined && { context: q.context }), ...(q.confidence !== undefined && { confidence: q.confidence }), options: q.options, askedBy: q.askedBy };
        escalations.push({ id, title, budget, spent, limit, by, ...(question && { question }) });
      }
    }
    const spent = spentOf(item);
    if (FINISHED_STATUSES.has(item.status) || spent.reworkRounds + spent.clarificationRounds === 0) continue;
    budgetsSpent.push(budgetUse(state, item));
  }
  return { escalations, budgetsSpent };
}

/** The rounds an item has spent, of its limits. */
export function budgetUse(state: State, item: WorkRecord): Digest['budgetsSpent'][number] {
  const spent = spentOf(item);
  const limits = budgetsOf(state, item);
  return { id: item.id, title: item.title, ...spent, reworkLimit: limits.reworkRounds, clarificationLimit: limits.clarificationRounds };
}
