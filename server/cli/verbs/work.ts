import { resolve } from 'node:path';
import { dispositionSchema, roleSchema, tierSchema, workKindSchema, workStatusSchema } from '../../../contracts/index.js';
import type { PlaneClient } from '../../client/plane-client.js';
import { pageLimit, parseVerbArgs, requireValue } from '../args.js';
import { UsageError } from '../cli-error.js';
import { connectAs, connectAsOperator, connectUnjoined, using } from '../connection.js';
import { jsonArg } from '../json-arg.js';
import { emit, moreLines, table } from '../output.js';
import { fetchLists } from '../paged-call.js';
import { WORK_PROTOCOL_USAGE, addBudgets, answerUpdate, configureVerb, protocolUpdate, workProtocolOptions } from './work-protocol.js';
import { WORK_SHOW_USAGE, artifactVerb, fetchItem, resolveAnswer, showVerb } from './work-show.js';

const USAGE = [
  'fleet work list [--status S] [--limit N]',
  'fleet work add TITLE [--kind telos|epic|story|task] [--parent ID] [--depends ID…] [--path P…] [--criterion C…] [--role R] [--tier local|edge] [--rework N] [--clarifications N] [--as X]',
  ...WORK_SHOW_USAGE,
  'fleet work pull --as X',
  "fleet work complete ID --as X --artifact '{\"touchedFiles\":[…],\"commands\":[{\"command\":…,\"exitCode\":0}],\"criteria\":[…]}' (or @file.json)",
  "fleet work verify ID --as X --report '{\"verdicts\":[{\"criterion\":…,\"verdict\":\"pass\",\"evidence\":…}]}' (or @file.json)",
  'fleet work decide ID --disposition accept|rework|rollback|escalate --reason CODE [--ref ARTIFACT_ID|COMMIT…] [--note TEXT] [--rollback-ref COMMIT] [--as X]',
  ...WORK_PROTOCOL_USAGE,
].join('\n       ');

const options = {
  as: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  kind: { type: 'string' },
  parent: { type: 'string' },
  depends: { type: 'string', multiple: true },
  path: { type: 'string', multiple: true },
  criterion: { type: 'string', multiple: true },
  role: { type: 'string' },
  tier: { type: 'string' },
  root: { type: 'string' },
  artifact: { type: 'string' },
  report: { type: 'string' },
  disposition: { type: 'string' },
  reason: { type: 'string' },
  ref: { type: 'string', multiple: true },
  'rollback-ref': { type: 'string' },
  note: { type: 'string' },
  ...workProtocolOptions,
} as const;

/** A value checked against one of the contracts' enums, or a usage error naming the flag. */
function oneOf<T extends string>(schema: { safeParse(v: unknown): { success: boolean; data?: T }; options: readonly T[] }, value: string | undefined, flag: string): T | undefined {
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(`${flag} ${value}: expected one of ${schema.options.join(', ')}`);
  return parsed.data;
}

export async function workVerb(argv: string[]): Promise<number> {
  const { values, positionals, home } = parseVerbArgs(argv, options, `\n       ${USAGE}`);
  const [action, arg] = positionals;
  const connection = (): Promise<PlaneClient> => (values.as !== undefined ? connectAs(home, values.as) : connectAsOperator(home));
  switch (action) {
    case 'list': {
      const status = oneOf(workStatusSchema, values.status, '--status');
      const limit = pageLimit(values.limit);
      const result = await using(values.as !== undefined ? connectAs(home, values.as) : connectUnjoined(home), (client) =>
        fetchLists(limit, (page) => client.call('fleet_work_list', { ...(status && { status }), ...page })),
      );
      emit(values.json, result, () =>
        result.items.length === 0
          ? 'no work items'
          : [table([['ID', 'KIND', 'STATUS', 'ASSIGNEE', 'TITLE'], ...result.items.map((w) => [w.id, w.kind, w.status, w.assignee ?? '', w.title])]), ...moreLines(result.items.length, result.totals.items, 'work items')].join('\n'),
      );
      return 0;
    }
    case 'add': {
      const title = requireValue(arg, 'TITLE', USAGE);
      const kind = oneOf(workKindSchema, values.kind, '--kind');
      const role = oneOf(roleSchema, values.role, '--role');
      const tier = oneOf(tierSchema, values.tier, '--tier');
      const result = await using(connection(), (client) =>
        client.call('fleet_work_add', {
          title,
          ...(kind && { kind }),
          ...(values.parent !== undefined && { parent: values.parent }),
          ...(values.depends && { dependsOn: values.depends }),
          ...(values.path && { paths: values.path }),
          ...(values.criterion && { criteria: values.criterion }),
          ...(role && { role }),
          ...(tier && { tier }),
          ...addBudgets(values),
          root: resolve(values.root ?? process.cwd()),
        }),
      );
      emit(values.json, result, () => `added ${result.item.id} (${result.item.status})`);
      return 0;
    }
    case 'pull': {
      const result = await using(connectAs(home, requireValue(values.as, '--as', USAGE)), (client) => client.call('fleet_work_pull', {}));
      emit(values.json, result, () => {
        if (result.refusedBy === 'control') return `nothing pulled: the fleet is ${result.control.state}; start nothing new`;
        if (!result.item) return 'no ready work you can take right now';
        return [
          `pulled ${result.item.id}: ${result.item.title}`,
          ...result.claims.map((c) => `  claimed ${c.pattern} (fence ${c.fence})`),
          ...result.item.criteria.map((c) => `  criterion: ${c}`),
          ...(result.guidance ? [`  guidance v${result.guidance.version} (${result.guidance.covenant.map((f) => f.path).join(', ') || 'no covenant files'})`] : []),
        ].join('\n');
      });
      return result.item ? 0 : 3;
    }
    case 'complete':
    case 'verify':
    case 'decide':
    case 'plan':
    case 'clarify':
    case 'answer': {
      const id = requireValue(arg, 'ID', USAGE);
      const params =
        action === 'complete'
          ? { id, action, artifact: jsonArg(requireValue(values.artifact, '--artifact', USAGE), '--artifact') }
          : action === 'verify'
            ? { id, action, report: jsonArg(requireValue(values.report, '--report', USAGE), '--report') }
            : action === 'decide'
              ? {
                  id,
                  action,
                  decision: {
                    disposition: oneOf(dispositionSchema, requireValue(values.disposition, '--disposition', USAGE), '--disposition'),
                    reasonCode: requireValue(values.reason, '--reason', USAGE),
                    refs: values.ref ?? [],
                    ...(values.note !== undefined && { note: values.note }),
                    ...(values['rollback-ref'] !== undefined && { rollbackRef: values['rollback-ref'] }),
                  },
                }
              : action === 'answer'
                ? undefined
                : protocolUpdate(action, id, values);
      // The artifact and report are checked by the plane against the contracts (exit 2 naming the field).
      const result = await using(connection(), async (client) => client.callRaw('fleet_work_update', params ?? answerUpdate(id, resolveAnswer(await fetchItem(client, id), values), values)));
      emit(values.json, result, () => {
        const { item, clarificationId } = result as { item: { id: string; status: string }; clarificationId?: string };
        return [`${item.id} is now ${item.status}`, ...(clarificationId ? [`clarification request ${clarificationId}`] : [])].join('\n');
      });
      return 0;
    }
    case 'configure':
      return configureVerb(connection(), values);
    case 'show':
      return showVerb(values.as !== undefined ? connectAs(home, values.as) : connectUnjoined(home), arg, values.json);
    case 'artifact':
      return artifactVerb(values.as !== undefined ? connectAs(home, values.as) : connectUnjoined(home), arg, values.json);
    default:
      throw new UsageError(`usage: ${USAGE}`);
  }
}
