import type { Digest } from '../../contracts/index.js';
import type { State } from './state.js';
import { budgetsOf, spentOf } from './work-budgets.js';

const FINISHED = new Set(['done', 'rolled_back']);

/** The digest's view of the work protocol: what waits for the operator, and which loops are running out of rounds. */
export function workProtocolDigest(state: State): Pick<Digest, 'escalations' | 'budgetsSpent'> {
  const escalations: Digest['escalations'] = [];
  const budgetsSpent: Digest['budgetsSpent'] = [];
  for (const item of state.work.values()) {
    if (item.status === 'escalated') {
      const { id, title } = item;
      escalations.push(item.escalation ? { id, title, ...item.escalation } : { id, title, by: item.decidedBy ?? '?', ...(item.statusReason !== undefined && { reason: item.statusReason }) });
    }
    const spent = spentOf(item);
    if (FINISHED.has(item.status) || spent.reworkRounds + spent.clarificationRounds === 0) continue;
    const limits = budgetsOf(state, item);
    budgetsSpent.push({ id: item.id, title: item.title, ...spent, reworkLimit: limits.reworkRounds, clarificationLimit: limits.clarificationRounds });
  }
  return { escalations, budgetsSpent };
}
