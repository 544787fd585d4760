import { FleetError, type Escalation, type FleetEventInput, type WorkBudgets, type WorkSettings } from '../../contracts/index.js';
import { actorName, isRteOrOperator } from './authority.js';
import type { Caller, Ctx } from './context.js';
import type { WorkRecord } from './orchestration-records.js';
import type { State } from './state.js';
import { freeBuilder } from './work-claims.js';
import { orchestratorDecision } from './work-orchestrator-decision.js';

/** An item's budgets: its own where set, else the fleet's. */
export function budgetsOf(state: State, item: WorkRecord): WorkBudgets {
  const { reworkRounds, clarificationRounds } = state.workSettings;
  return { reworkRounds, clarificationRounds, ...item.budgets };
}

/** Rounds spent so far, per budget. */
export function spentOf(item: WorkRecord): WorkBudgets {
  return { reworkRounds: item.reworkRounds, clarificationRounds: item.clarifications.length };
}

/**
 * The escalation due when one more round of `budget` would pass the item's limit: a relentless
 * fleet does not loop all night, it hands the item to the operator.
 */
export function spentBudget(ctx: Ctx, item: WorkRecord, budget: Escalation['budget'], by: string): Escalation | undefined {
  const key = budget === 'rework' ? 'reworkRounds' : 'clarificationRounds';
  const limit = budgetsOf(ctx.state, item)[key];
  const spent = spentOf(item)[key];
  return spent >= limit ? { budget, spent, limit, by } : undefined;
}

/**
 * Sends the item to the operator because a budget is spent (`extra`: what else the transition
 * records). A question it escalates with keeps the builder and its claims, as an open question
 * does: the item waits for the answer and then goes back to the status it waited in.
 */
export function escalateWork(ctx: Ctx, item: WorkRecord, escalation: Escalation, extra: Pick<WorkTransition, 'report' | 'verifier'> = {}): void {
  const reason = escalation.question
    ? `${escalation.budget} budget spent (${escalation.spent} of ${escalation.limit} rounds): the operator answers ${escalation.question.id} (${escalation.question.question})`
    : `${escalation.budget} budget spent (${escalation.spent} of ${escalation.limit} rounds): the operator decides`;
  const builder = escalation.question ? {} : freeBuilder(ctx, item, escalation.by);
  // What it rests on: the question it carries, else the report (or build) that spent the last round.
  const refs = escalation.question ? [escalation.question.artifactId] : [(extra.report ?? item.report)?.artifactId ?? item.artifact?.artifactId];
  const decision = orchestratorDecision(ctx, item, 'escalate', `${escalation.budget}-budget-spent`, refs, 'escalated');
  ctx.emit({ type: 'work.transitioned', by: escalation.by, itemId: item.id, status: 'escalated', escalation: { ...escalation, waitedIn: item.status }, reason, decision, ...extra, ...builder });
}

type WorkTransition = Extract<FleetEventInput, { type: 'work.transitioned' }>;

export type WorkConfiguration = Partial<WorkSettings> & { id?: string };

/** Sets the fleet's protocol settings or (with id) one item's budgets: an RTE or the operator only. */
export function configureWork(ctx: Ctx, caller: Caller, input: WorkConfiguration): WorkRecord | undefined {
  if (!isRteOrOperator(ctx.state, caller)) throw new FleetError('FORBIDDEN', 'configuring the work protocol needs role rte or the operator');
  const { id, reworkRounds, clarificationRounds, planRequired } = input;
  const item = id !== undefined ? ctx.state.work.get(id) : undefined;
  if (id !== undefined && !item) throw new FleetError('NOT_FOUND', `no work item ${id}`);
  if (item && planRequired !== undefined) throw new FleetError('INVALID_PARAMS', 'planRequired is a fleet setting: configure it without id');
  ctx.emit({
    type: 'work.configured',
    by: actorName(ctx.state, caller),
    ...(id !== undefined && { itemId: id }),
    ...(reworkRounds !== undefined && { reworkRounds }),
    ...(clarificationRounds !== undefined && { clarificationRounds }),
    ...(planRequired !== undefined && { planRequired }),
  });
  return item;
}
