import { resolve } from 'node:path';
import { parseVerbArgs, requireValue } from '../args.js';
import { connectAsOperator, using } from '../connection.js';
import { emit, table } from '../output.js';

/** `fleet history PATH`: who held this path, when, and why each hold ended. */
export async function historyVerb(argv: string[]): Promise<number> {
  const usage = 'fleet history PATH [--root DIR]';
  const { values, positionals, home } = parseVerbArgs(argv, { root: { type: 'string' } }, usage);
  const path = requireValue(positionals[0], 'PATH', usage);
  const result = await using(connectAsOperator(home), (client) => client.call('fleet_path_history', { path, root: resolve(values.root ?? process.cwd()) }));
  emit(values.json, result, () => {
    const claims =
      result.entries.length === 0
        ? `${result.path}: never claimed`
        : table([
            ['HOLDER', 'PATTERN', 'MODE', 'FENCE', 'FROM', 'UNTIL', 'ENDED', 'REASON'],
            ...result.entries.map((e) => [e.holder, e.pattern, e.mode, String(e.fence), e.grantedAt, e.endedAt ?? '(held)', e.ended ?? '', e.reason ?? e.note ?? '']),
          ]);
    if (result.violations.length === 0) return claims;
    return `${claims}\n\nviolations (writes while another agent held it)\n${table([
      ['AT', 'WRITER', 'HOLDER', 'FENCE', 'SEEN BY', 'ACKNOWLEDGED'],
      ...result.violations.map((v) => [v.at, v.writer, v.holder, String(v.fence), v.source, v.acknowledged ? 'yes' : 'no']),
    ])}`;
  });
  return 0;
}
