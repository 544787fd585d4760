import { resolve } from 'node:path';
import { parseVerbArgs, positiveNumber, requireValue } from '../args.js';
import { UsageError } from '../cli-error.js';
import { connectAs, connectAsOperator, connectUnjoined, using } from '../connection.js';
import { emit } from '../output.js';

const USAGE = 'fleet build configure --command CMD [--worktree DIR] [--timeout S] [--root DIR]\n       fleet build [verify] [--wait] [--as X] [--root DIR]';

/** The build gate: the operator configures it; anyone asks the plane to run it. */
export async function buildVerb(argv: string[]): Promise<number> {
  const { values, positionals, home } = parseVerbArgs(
    argv,
    { as: { type: 'string' }, command: { type: 'string' }, worktree: { type: 'string' }, timeout: { type: 'string' }, wait: { type: 'boolean' }, root: { type: 'string' } },
    USAGE,
  );
  const root = resolve(values.root ?? process.cwd());
  const [action = 'verify'] = positionals;
  if (action === 'configure') {
    const timeoutSeconds = positiveNumber(values.timeout, '--timeout');
    const result = await using(connectAsOperator(home), (client) =>
      client.call('fleet_build_configure', {
        root,
        command: requireValue(values.command, '--command', USAGE),
        ...(values.worktree !== undefined && { worktree: resolve(values.worktree) }),
        ...(timeoutSeconds !== undefined && { timeoutSeconds }),
      }),
    );
    emit(values.json, result, () => `build gate for ${result.scope}: \`${result.command}\` in ${result.worktree}, timeout ${result.timeoutSeconds} s`);
    return 0;
  }
  if (action !== 'verify') throw new UsageError(`unknown build action "${action}"\nusage: ${USAGE}`);
  const connection = values.as !== undefined ? connectAs(home, values.as) : connectUnjoined(home);
  const { run, control } = await using(connection, (client) => client.call('fleet_build_verify', { root, wait: values.wait ?? false }));
  emit(values.json, { run, control }, () =>
    [`build ${run.id}: ${run.status.toUpperCase()}${run.commit ? ` at ${run.commit.slice(0, 10)}` : ''}${run.exitCode !== undefined && run.exitCode !== null ? `, exit ${run.exitCode}` : ''}${run.durationMs !== undefined ? `, ${run.durationMs} ms` : ''}`, ...(run.logTail ? ['', run.logTail.trimEnd()] : [])].join('\n'),
  );
  return run.status === 'red' ? 3 : 0;
}
