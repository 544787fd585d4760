import type { HandoffArtifact, WorkItem } from '../../../contracts/index.js';
import type { PlaneClient } from '../../client/plane-client.js';
import { requireValue } from '../args.js';
import { UsageError } from '../cli-error.js';
import { using } from '../connection.js';
import { emit } from '../output.js';

/**
 * `fleet work show ID`, `fleet work artifact ID` and the operator's `fleet work answer ID --option
 * N`: an item with the artifacts it holds and the question it may wait on, one artifact by its id,
 * and the answer to an open (or escalated) question picked by its number.
 */

export const WORK_SHOW_USAGE = ['fleet work show ID', 'fleet work artifact ARTIFACT_ID'];

/** One item by id, or NOT_FOUND (fleet_work_list with id). */
export async function fetchItem(client: PlaneClient, id: string): Promise<WorkItem> {
  const { items } = await client.call('fleet_work_list', { id });
  const item = items[0];
  if (!item) throw new UsageError(`no work item ${id}: fleet work list shows the queue`);
  return item;
}

export async function showVerb(connection: Promise<PlaneClient>, arg: string | undefined, json: boolean | undefined): Promise<number> {
  const item = await using(connection, (client) => fetchItem(client, requireValue(arg, 'ID', WORK_SHOW_USAGE.join('\n       '))));
  emit(json, { item }, () => describeItem(item));
  return 0;
}

export async function artifactVerb(connection: Promise<PlaneClient>, arg: string | undefined, json: boolean | undefined): Promise<number> {
  const id = requireValue(arg, 'ARTIFACT_ID', WORK_SHOW_USAGE.join('\n       '));
  const result = await using(connection, (client) => client.call('fleet_work_artifact', { id }));
  emit(json, result, () => describeArtifact(result.artifact));
  return 0;
}

function describeItem(item: WorkItem): string {
  const held: [string, { artifactId?: string } | undefined][] = [
    ['plan', item.plan],
    ['build artifact', item.artifact],
    ['verification request', item.verificationRequest],
    ['verification report', item.report],
    ['decision', item.decision],
  ];
  const lines = [
    `${item.id} (${item.kind}): ${item.title}`,
    `  status ${item.status}${item.statusReason ? ` — ${item.statusReason}` : ''}`,
    ...(item.assignee ? [`  builder ${item.assignee}`] : []),
    ...(item.verifier ? [`  verifier ${item.verifier}`] : []),
    ...item.criteria.map((c) => `  criterion: ${c}`),
    ...held.flatMap(([what, a]) => (a?.artifactId ? [`  ${what}: ${a.artifactId}`] : [])),
    // A rollback the plane does not apply itself: what the person has to run (seed invariant 4).
    ...(item.decision?.remediation !== undefined ? [`  rollback to ${item.decision.rollbackRef ?? '?'}: ${item.decision.remediation}`] : []),
    ...item.clarifications.map((c) => `  clarification ${c.request.id}: ${c.request.question}${c.response ? ` → ${c.response.chosen}` : ' (open)'}`),
  ];
  return [...lines, ...escalationLines(item)].join('\n');
}

/** Why an escalated item waits for the operator, and the question it carries with how to answer it. */
export function escalationLines(item: WorkItem): string[] {
  const { escalation } = item;
  if (!escalation) return [];
  const question = escalation.question;
  return [
    `  escalated: ${escalation.budget} budget spent (${escalation.spent} of ${escalation.limit} rounds), by ${escalation.by}`,
    ...(question
      ? [
          `  question ${question.id} from ${question.askedBy}: ${question.question}`,
          ...(question.context !== undefined ? [`  context: ${question.context}`] : []),
          ...(question.confidence !== undefined ? [`  confidence: ${question.confidence}`] : []),
          ...question.options.map((o, i) => `    ${i + 1}. ${o}`),
          `  answer: fleet work answer ${item.id} ${question.options.length > 0 ? '--option N' : '--choose ANSWER'} --rationale WHY (returns it to ${escalation.waitedIn ?? 'ready'})`,
        ]
      : [`  decide it: fleet work decide ${item.id} …`]),
  ];
}

function describeArtifact(artifact: HandoffArtifact): string {
  const { artifactId, kind, schemaVersion, workItem, producedByRole, producedBy, producedAt, sourceRefs, fingerprint } = artifact;
  const content: Record<string, unknown> = { ...artifact };
  for (const field of ['artifactId', 'kind', 'schemaVersion', 'workItem', 'producedByRole', 'producedBy', 'producedAt', 'sourceRefs', 'fingerprint', 'id', 'trust']) delete content[field];
  return [
    `${artifactId}: ${kind} (schema version ${schemaVersion})${workItem !== undefined ? ` of ${workItem}` : ''}`,
    `  produced by ${producedBy ?? '?'} (${producedByRole ?? '?'}) at ${producedAt}`,
    `  rests on: ${sourceRefs.length > 0 ? sourceRefs.join(', ') : 'nothing'}`,
    `  fingerprint ${fingerprint ?? '?'}`,
    JSON.stringify(content, null, 2),
  ].join('\n');
}

/**
 * The request an answer is for: `--request` when given, else the question the item escalated with,
 * else its one open round. `--option N` picks that request's Nth option.
 */
export function resolveAnswer(item: WorkItem, values: { request?: string; option?: string[]; choose?: string }): { requestId: string; chosen: string } {
  const open = item.clarifications.filter((c) => !c.response).map((c) => c.request);
  const candidates = [...(item.escalation?.question ? [item.escalation.question] : []), ...open];
  const request = values.request !== undefined ? candidates.find((r) => r.id === values.request) : item.escalation?.question ?? (open.length === 1 ? open[0] : undefined);
  if (!request) {
    throw new UsageError(
      values.request !== undefined
        ? `${item.id} has no open question ${values.request}${candidates.length > 0 ? `; open: ${candidates.map((r) => r.id).join(', ')}` : ''}`
        : `${item.id} has ${open.length === 0 ? 'no open question' : `${open.length} open questions (${open.map((r) => r.id).join(', ')})`}: name one with --request`,
    );
  }
  const picked = values.option?.[0];
  if (picked !== undefined) {
    const n = Number(picked);
    if (!Number.isInteger(n) || n < 1 || n > request.options.length) {
      throw new UsageError(`--option ${picked}: ${request.id} offers ${request.options.length === 0 ? 'no options (answer with --choose)' : `options 1 to ${request.options.length}: ${request.options.map((o, i) => `${i + 1}. ${o}`).join('; ')}`}`);
    }
    return { requestId: request.id, chosen: request.options[n - 1]! };
  }
  return { requestId: request.id, chosen: requireValue(values.choose, '--option N or --choose', 'fleet work answer ID (--option N | --choose ANSWER) --rationale WHY') };
}
