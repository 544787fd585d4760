import { resolve } from 'node:path';
import { parseVerbArgs, positiveNumber, requireValue } from '../args.js';
import { EXIT, UsageError } from '../cli-error.js';
import { connectAs, connectUnjoined, using } from '../connection.js';
import { relativeTime } from '../../format/relative-time.js';
import { emit } from '../output.js';

/**
 * Where the paths belong: `--scope` (the repository's id or origin URL, for an agent without a
 * checkout: paths are then repository-relative), else `--root`, else the working directory.
 */
const repositoryOf = (values: { root?: string | undefined; scope?: string | undefined }) =>
  values.scope !== undefined ? { scope: values.scope, ...(values.root !== undefined && { root: resolve(values.root) }) } : { root: resolve(values.root ?? process.cwd()) };
const repositoryOptions = { root: { type: 'string' }, scope: { type: 'string' } } as const;

const CLAIM_USAGE = 'fleet claim --as X [--shared] [--ttl S] [--wait S] [--reason T] [--request-id ID] [--root DIR | --scope ID] PATTERN…';

export async function claimVerb(argv: string[]): Promise<number> {
  const { values, positionals, home } = parseVerbArgs(
    argv,
    { as: { type: 'string' }, shared: { type: 'boolean' }, ttl: { type: 'string' }, wait: { type: 'string' }, reason: { type: 'string' }, 'request-id': { type: 'string' }, ...repositoryOptions },
    CLAIM_USAGE,
  );
  const callsign = requireValue(values.as, '--as', CLAIM_USAGE);
  if (positionals.length === 0) throw new UsageError(`give at least one PATTERN to claim\nusage: ${CLAIM_USAGE}`);
  const ttlSeconds = positiveNumber(values.ttl, '--ttl');
  const waitSeconds = positiveNumber(values.wait, '--wait');
  const result = await using(connectAs(home, callsign), (client) =>
    client.call('fleet_claim_path', {
      patterns: positionals,
      mode: values.shared ? 'shared' : 'exclusive',
      ...repositoryOf(values),
      ...(ttlSeconds !== undefined && { ttlSeconds }),
      ...(waitSeconds !== undefined && { waitSeconds }),
      ...(values.reason !== undefined && { reason: values.reason }),
      ...(values['request-id'] !== undefined && { requestId: values['request-id'] }),
    }),
  );
  emit(values.json, result, () => {
    if (result.granted) return result.claims.map((c) => `granted ${c.pattern}  fence ${c.fence}  id ${c.id}  expires ${relativeTime(c.expiresAt)}`).join('\n');
    if (result.refusedBy === 'control') return `refused: the fleet is ${result.control.state}${result.control.reason ? ` (${result.control.reason})` : ''}; start nothing new`;
    return ['refused: conflict', ...result.conflicts.map((c) => `  ${c.pattern} overlaps ${c.heldPattern} held ${c.mode} by ${c.holder}, expires ${relativeTime(c.expiresAt)}`)].join('\n');
  });
  return result.granted ? EXIT.ok : EXIT.refused;
}

const CHECK_USAGE = 'fleet check [--as X] [--fence N] [--root DIR | --scope ID] PATH…';

export async function checkVerb(argv: string[]): Promise<number> {
  const { values, positionals, home } = parseVerbArgs(argv, { as: { type: 'string' }, fence: { type: 'string' }, ...repositoryOptions }, CHECK_USAGE);
  if (positionals.length === 0) throw new UsageError(`give at least one PATH to check\nusage: ${CHECK_USAGE}`);
  const fence = values.fence === undefined ? undefined : Number(values.fence);
  if (fence !== undefined && (!Number.isInteger(fence) || fence <= 0)) throw new UsageError(`--fence ${values.fence}: expected a fencing token (a positive integer)`);
  const connection = values.as !== undefined ? connectAs(home, values.as) : connectUnjoined(home);
  const result = await using(connection, (client) =>
    client.call('fleet_check_path', { paths: positionals, ...repositoryOf(values), ...(fence !== undefined && { fence }) }),
  );
  emit(values.json, result, () =>
    result.results
      .map((r) => {
        const holders = r.holders.map((h) => `${h.callsign} (${h.mode} ${h.pattern}, expires ${relativeTime(h.expiresAt)})`).join(', ');
        return `${r.allowed ? 'allowed' : 'refused'}  ${r.path}${holders ? `  held by ${holders}` : '  unclaimed'}`;
      })
      .join('\n'),
  );
  return result.allowed ? EXIT.ok : EXIT.refused;
}

const RELEASE_USAGE = 'fleet release --as X [--root DIR | --scope ID] (PATTERN… | --id ID…)';

export async function releaseVerb(argv: string[]): Promise<number> {
  const { values, positionals, home } = parseVerbArgs(argv, { as: { type: 'string' }, id: { type: 'string', multiple: true }, ...repositoryOptions }, RELEASE_USAGE);
  const callsign = requireValue(values.as, '--as', RELEASE_USAGE);
  const claimIds = values.id ?? [];
  if (positionals.length === 0 && claimIds.length === 0) throw new UsageError(`give PATTERNs or --id IDs to release\nusage: ${RELEASE_USAGE}`);
  const result = await using(connectAs(home, callsign), (client) =>
    client.call('fleet_release_path', {
      ...(claimIds.length > 0 && { claimIds }),
      ...(positionals.length > 0 && { patterns: positionals, ...repositoryOf(values) }),
    }),
  );
  emit(values.json, result, () => (result.released.length > 0 ? `released ${result.released.join(', ')}` : 'nothing to release'));
  return EXIT.ok;
}
