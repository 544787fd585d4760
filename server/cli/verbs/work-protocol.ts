import type { Params, Result } from '../../../contracts/index.js';
import type { PlaneClient } from '../../client/plane-client.js';
import { requireValue } from '../args.js';
import { UsageError } from '../cli-error.js';
import { using } from '../connection.js';
import { jsonArg } from '../json-arg.js';
import { emit } from '../output.js';

export const WORK_PROTOCOL_USAGE = [
  "fleet work plan ID --as X --plan '{\"intendedFiles\":[…],\"validationPlan\":[…],\"coverage\":{\"CRITERION\":\"how it is shown met\"}}' (or @file.json)",
  'fleet work clarify ID --as X --question Q --context C --confidence low|medium|high [--option O…] [--to CALLSIGN]',
  'fleet work answer ID [--request REQUEST_ID] (--option N | --choose O) --rationale R [--constraint C…] [--as X]',
  'fleet work configure [--item ID] [--rework N] [--clarifications N] [--plan-required yes|no]',
];

export const workProtocolOptions = {
  plan: { type: 'string' },
  question: { type: 'string' },
  context: { type: 'string' },
  confidence: { type: 'string' },
  option: { type: 'string', multiple: true },
  to: { type: 'string' },
  request: { type: 'string' },
  choose: { type: 'string' },
  rationale: { type: 'string' },
  constraint: { type: 'string', multiple: true },
  item: { type: 'string' },
  rework: { type: 'string' },
  clarifications: { type: 'string' },
  'plan-required': { type: 'string' },
} as const;

interface ProtocolValues {
  json?: boolean;
  plan?: string;
  question?: string;
  context?: string;
  confidence?: string;
  option?: string[];
  to?: string;
  request?: string;
  choose?: string;
  rationale?: string;
  constraint?: string[];
  item?: string;
  rework?: string;
  clarifications?: string;
  'plan-required'?: string;
}

const usage = WORK_PROTOCOL_USAGE.join('\n       ');

/** `fleet work add --rework N --clarifications N`: the item's own budgets. */
export function addBudgets(values: ProtocolValues): { budgets?: { reworkRounds?: number; clarificationRounds?: number } } {
  const budgets = { ...optional('reworkRounds', rounds(values.rework, '--rework')), ...optional('clarificationRounds', rounds(values.clarifications, '--clarifications')) };
  return Object.keys(budgets).length > 0 ? { budgets } : {};
}

function rounds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new UsageError(`${flag} ${value}: expected a whole number of rounds (0 or more)`);
  return number;
}

function yesNo(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'yes' && value !== 'no') throw new UsageError(`--plan-required ${value}: expected yes or no`);
  return value === 'yes';
}

/** The update params of `fleet work plan|clarify ID` (the plane checks them against the contracts). */
export function protocolUpdate(action: 'plan' | 'clarify', id: string, values: ProtocolValues): object {
  switch (action) {
    case 'plan':
      return { id, action, plan: jsonArg(requireValue(values.plan, '--plan', usage), '--plan') };
    case 'clarify':
      return {
        id,
        action,
        question: requireValue(values.question, '--question', usage),
        // The seed's must-include: what is being decided, and how sure the asker is going on without an answer.
        context: requireValue(values.context, '--context', usage),
        confidence: requireValue(values.confidence, '--confidence', usage),
        options: values.option ?? [],
        ...(values.to !== undefined && { to: values.to }),
      };
  }
}

/** `fleet work answer ID`: the request and option resolved from the item (work-show.ts), the rest from the flags. */
export function answerUpdate(id: string, resolved: { requestId: string; chosen: string }, values: ProtocolValues): object {
  return { id, action: 'answer', ...resolved, rationale: requireValue(values.rationale, '--rationale', usage), updatedConstraints: values.constraint ?? [] };
}

/** `fleet work configure`: the fleet's budgets and plan rule, or one item's budgets (operator or RTE). */
export async function configureVerb(connection: Promise<PlaneClient>, values: ProtocolValues): Promise<number> {
  const params: Params<'fleet_work_configure'> = {
    ...(values.item !== undefined && { id: values.item }),
    ...optional('reworkRounds', rounds(values.rework, '--rework')),
    ...optional('clarificationRounds', rounds(values.clarifications, '--clarifications')),
    ...optional('planRequired', yesNo(values['plan-required'])),
  };
  const result: Result<'fleet_work_configure'> = await using(connection, (client) => client.call('fleet_work_configure', params));
  emit(values.json, result, () => {
    const s = result.settings;
    const fleet = `fleet: ${s.reworkRounds} rework rounds, ${s.clarificationRounds} clarification rounds, plan ${s.planRequired ? 'required' : 'optional'} before completion`;
    return result.item ? `${result.item.id}: ${result.item.budgets.reworkRounds} rework rounds, ${result.item.budgets.clarificationRounds} clarification rounds\n${fleet}` : fleet;
  });
  return 0;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
