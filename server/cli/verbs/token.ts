import { serviceRoleSchema, type ServiceTokenView } from '../../../contracts/index.js';
import { parseVerbArgs, requireValue } from '../args.js';
import { UsageError } from '../cli-error.js';
import { connectAsOperator, using } from '../connection.js';
import { emit, table } from '../output.js';

const USAGE = ['fleet token create --callsign X [--role worker|builder|verifier|rte] [--ttl D]', 'fleet token list', 'fleet token revoke (--id ID | --callsign X)'].join('\n       ');

const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 };

/** `--ttl 90d`, `12h`, `30m`, `45s` or plain seconds. */
export function durationSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)([smhd]?)$/.exec(value.trim());
  if (!match || Number(match[1]) === 0) throw new UsageError(`--ttl ${value}: expected a duration such as 90d, 12h, 30m, 45s or a number of seconds`);
  return Number(match[1]) * UNIT_SECONDS[match[2]!]!;
}

/**
 * `fleet token …`: the operator's service tokens for remote agents on the `--listen` endpoint
 * (DESIGN §13). Operator verbs: they present FLEET_HOME/operator-token, so only the person at this
 * machine runs them. The token is printed once; the plane keeps only its hash.
 */
export async function tokenVerb(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  const { values, home } = parseVerbArgs(rest, { callsign: { type: 'string' }, role: { type: 'string' }, ttl: { type: 'string' }, id: { type: 'string' } }, USAGE);
  if (action === 'create') {
    const role = serviceRoleSchema.safeParse(values.role ?? 'worker');
    if (!role.success) throw new UsageError(`--role ${values.role}: a service token takes role ${serviceRoleSchema.options.join(', ')}; operator is never remote (the person's tools hold it)`);
    const ttlSeconds = durationSeconds(values.ttl);
    const result = await using(connectAsOperator(home), (client) =>
      client.call('fleet_token_create', { callsign: requireValue(values.callsign, '--callsign', USAGE), role: role.data, ...(ttlSeconds !== undefined && { ttlSeconds }) }),
    );
    emit(values.json, result, () =>
      [
        result.token,
        '',
        `service token ${result.info.id} for ${result.info.callsign} (role ${result.info.role}), ${result.info.expiresAt === null ? 'until revoked' : `expires ${result.info.expiresAt}`}.`,
        'This is the only time it is shown: give it to that agent (FLEET_TOKEN, or its MCP client\'s Authorization header).',
      ].join('\n'),
    );
    return 0;
  }
  if (action === 'list') {
    const { tokens } = await using(connectAsOperator(home), (client) => client.call('fleet_token_list', {}));
    emit(values.json, { tokens }, () => (tokens.length === 0 ? 'no service tokens (fleet token create --callsign X --role R)' : tokenTable(tokens)));
    return 0;
  }
  if (action === 'revoke') {
    if ((values.id === undefined) === (values.callsign === undefined)) throw new UsageError(`pass --id ID or --callsign X\nusage: ${USAGE}`);
    const result = await using(connectAsOperator(home), (client) =>
      client.call('fleet_token_revoke', values.id !== undefined ? { id: values.id } : { callsign: values.callsign! }),
    );
    emit(values.json, result, () => (result.revoked.length === 0 ? 'nothing to revoke: already revoked' : `revoked ${result.revoked.join(', ')}: refused from the next call on`));
    return 0;
  }
  throw new UsageError(`${action === undefined ? 'missing action' : `unknown action "${action}"`}\nusage: ${USAGE}`);
}

function tokenTable(tokens: ServiceTokenView[]): string {
  return table([['ID', 'CALLSIGN', 'ROLE', 'STATUS', 'EXPIRES', 'CREATED'], ...tokens.map((t) => [t.id, t.callsign, t.role, t.status, t.expiresAt ?? 'never', `${t.createdAt} by ${t.createdBy}`])]);
}
