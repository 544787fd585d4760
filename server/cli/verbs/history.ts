import { resolve } from 'node:path';
import { parseVerbArgs, requireValue } from '../args.js';
import { connectUnjoined, using } from '../connection.js';
import { emit, table } from '../output.js';

/** `fleet history PATH`: who held this path, when, and why each hold ended. */
export async function historyVerb(argv: string[]): Promise<number> {
  const usage = 'fleet history PATH [--root DIR]';
  const { values, positionals, home } = parseVerbArgs(argv, { root: { type: 'string' } }, usage);
  const path = requireValue(positionals[0], 'PATH', usage);
  const result = await using(connectUnjoined(home), (client) => client.call('fleet_path_history', { path, root: resolve(values.root ?? process.cwd()) }));
  emit(values.json, result, () =>
    result.entries.length === 0
      ? `${result.path}: never claimed`
      : table([
          ['HOLDER', 'PATTERN', 'MODE', 'FENCE', 'FROM', 'UNTIL', 'ENDED', 'REASON'],
          ...result.entries.map((e) => [e.holder, e.pattern, e.mode, String(e.fence), e.grantedAt, e.endedAt ?? '(held)', e.ended ?? '', e.reason ?? e.note ?? '']),
        ]),
  );
  return 0;
}
