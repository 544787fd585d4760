import { resolve } from 'node:path';
import { releaseAtSchema } from '../../../contracts/index.js';
import { parseVerbArgs, positiveNumber } from '../args.js';
import { UsageError } from '../cli-error.js';
import { connectAs, connectAsOperator, connectUnjoined, using } from '../connection.js';
import { emit, table } from '../output.js';

const LAND_USAGE = 'fleet land ITEM… | --branch BRANCH [--as X] [--root DIR]\n       fleet land --done ITEM… [--commit C] [--as X]';
const INTEGRATE_USAGE = [
  'fleet integrate configure [--target BRANCH] [--remote NAME] [--push | --no-push] [--batch N] [--build CMD] [--timeout S] [--land-on-accept | --no-land-on-accept] [--release-at complete|landed] [--root DIR]',
  'fleet integrate status [--root DIR]',
].join('\n       ');

/** `fleet land`: queue accepted items (or a branch) on the train, or mark items landed by hand. RTE or operator. */
export async function landVerb(argv: string[]): Promise<number> {
  const { values, positionals, home } = parseVerbArgs(argv, { as: { type: 'string' }, root: { type: 'string' }, branch: { type: 'string' }, done: { type: 'boolean' }, commit: { type: 'string' } }, LAND_USAGE);
  const root = resolve(values.root ?? process.cwd());
  if (values.branch === undefined && positionals.length === 0) throw new UsageError(`name the items to land, or --branch\nusage: ${LAND_USAGE}`);
  if (values.branch !== undefined && positionals.length > 0) throw new UsageError(`either items or --branch, not both\nusage: ${LAND_USAGE}`);
  const connection = values.as !== undefined ? connectAs(home, values.as) : connectAsOperator(home);
  const result = await using(connection, (client) =>
    client.call('fleet_land', {
      root,
      ...(values.branch !== undefined ? { branch: values.branch } : { ids: positionals }),
      ...(values.done === true && { done: true }),
      ...(values.commit !== undefined && { commit: values.commit }),
    }),
  );
  emit(values.json, result, () =>
    [
      ...result.items.map((item) => `${item.id}: ${item.status}`),
      ...result.entries.map((entry) => `queued ${entry.branch} at ${entry.commit.slice(0, 12)} for ${entry.target}${entry.itemId.startsWith('land') ? ` (${entry.itemId})` : ''}`),
    ].join('\n'),
  );
  return 0;
}

/** `fleet integrate`: the train's settings (operator or RTE) and its state (anyone). */
export async function integrateVerb(argv: string[]): Promise<number> {
  const { values, positionals, home } = parseVerbArgs(
    argv,
    {
      as: { type: 'string' },
      root: { type: 'string' },
      target: { type: 'string' },
      remote: { type: 'string' },
      push: { type: 'boolean' },
      'no-push': { type: 'boolean' },
      batch: { type: 'string' },
      build: { type: 'string' },
      timeout: { type: 'string' },
      'land-on-accept': { type: 'boolean' },
      'no-land-on-accept': { type: 'boolean' },
      'release-at': { type: 'string' },
    },
    INTEGRATE_USAGE,
  );
  const root = resolve(values.root ?? process.cwd());
  const [action = 'status'] = positionals;
  if (action === 'configure') {
    const releaseAt = values['release-at'] !== undefined ? releaseAtSchema.safeParse(values['release-at']) : undefined;
    if (releaseAt && !releaseAt.success) throw new UsageError(`--release-at ${values['release-at']}: expected complete or landed`);
    const batchSize = positiveNumber(values.batch, '--batch');
    const timeoutSeconds = positiveNumber(values.timeout, '--timeout');
    const push = values.push === true ? true : values['no-push'] === true ? false : undefined;
    const landOnAccept = values['land-on-accept'] === true ? true : values['no-land-on-accept'] === true ? false : undefined;
    const connection = values.as !== undefined ? connectAs(home, values.as) : connectAsOperator(home);
    const { config } = await using(connection, (client) =>
      client.call('fleet_integrate_configure', {
        root,
        ...(values.target !== undefined && { target: values.target }),
        ...(values.remote !== undefined && { remote: values.remote }),
        ...(push !== undefined && { push }),
        ...(batchSize !== undefined && { batchSize }),
        ...(values.build !== undefined && { buildCommand: values.build }),
        ...(timeoutSeconds !== undefined && { timeoutSeconds }),
        ...(landOnAccept !== undefined && { landOnAccept }),
        ...(releaseAt?.data !== undefined && { releaseAt: releaseAt.data }),
      }),
    );
    emit(values.json, { config }, () =>
      `integration of ${config.scope}: target ${config.target ?? '(the default branch)'}${config.remote !== undefined ? `, remote ${config.remote}${config.push ? ' (push)' : ''}` : ''}, batches of ${config.batchSize}, build ${config.buildCommand !== undefined ? `\`${config.buildCommand}\`` : '(the build gate\'s)'}, land on accept ${config.landOnAccept ? 'on' : 'off'}, claims released ${config.releaseAt === 'complete' ? 'at complete' : 'once landed'}`,
    );
    return 0;
  }
  if (action !== 'status') throw new UsageError(`unknown integrate action "${action}"\nusage: ${INTEGRATE_USAGE}`);
  const connection = values.as !== undefined ? connectAs(home, values.as) : connectUnjoined(home);
  const status = await using(connection, (client) => client.call('fleet_integrate_status', { root }));
  emit(values.json, status, () => {
    const lines = [`train for ${status.config.target ?? 'the default branch'} of ${status.config.scope}`];
    if (status.batch) {
      lines.push(`building ${status.batch.itemIds.join(', ')} on ${status.batch.base.slice(0, 12)} since ${status.batch.since}${status.batch.tip !== undefined ? ` (GREEN at ${status.batch.tip.slice(0, 12)}, moving the target)` : ''}`);
      if (status.batch.logTail) lines.push(...status.batch.logTail.trimEnd().split('\n').slice(-10).map((l) => `  | ${l}`));
    }
    const rows = status.entries.map((e) => [e.itemId, e.branch, e.commit.slice(0, 12), e.status, e.landedCommit?.slice(0, 12) ?? e.reason ?? '']);
    lines.push(rows.length === 0 ? 'nothing queued or landed yet' : table([['ITEM', 'BRANCH', 'COMMIT', 'STATUS', 'LANDED AS / WHY'], ...rows]));
    return lines.join('\n');
  });
  return 0;
}
