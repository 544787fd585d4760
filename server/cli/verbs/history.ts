import { resolve } from 'node:path';
import { pageLimit, parseVerbArgs, requireValue } from '../args.js';
import { connectUnjoined, using } from '../connection.js';
import { emit, moreLines, table } from '../output.js';
import { fetchLists } from '../paged-call.js';

/** `fleet history PATH`: who held this path, when, and why each hold ended. */
export async function historyVerb(argv: string[]): Promise<number> {
  const usage = 'fleet history PATH [--root DIR] [--limit N]';
  const { values, positionals, home } = parseVerbArgs(argv, { root: { type: 'string' }, limit: { type: 'string' } }, usage);
  const path = requireValue(positionals[0], 'PATH', usage);
  const limit = pageLimit(values.limit);
  const root = resolve(values.root ?? process.cwd());
  // Every page unless --limit: the history is complete however long it is.
  const result = await using(connectUnjoined(home), (client) => fetchLists(limit, (page) => client.call('fleet_path_history', { path, root, ...page })));
  emit(values.json, result, () => {
    const claims =
      result.entries.length === 0
        ? `${result.path}: never claimed`
        : table([
            ['HOLDER', 'PATTERN', 'MODE', 'FENCE', 'FROM', 'UNTIL', 'ENDED', 'REASON'],
            ...result.entries.map((e) => [e.holder, e.pattern, e.mode, String(e.fence), e.grantedAt, e.endedAt ?? '(held)', e.ended ?? '', e.reason ?? e.note ?? '']),
          ]);
    const claimLines = [claims, ...moreLines(result.entries.length, result.totals.entries, 'holds')].join('\n');
    const violationLines =
      result.violations.length === 0
        ? ''
        : `\n\nviolations (writes while another agent held it)\n${table([
            ['AT', 'WRITER', 'HOLDER', 'FENCE', 'SEEN BY', 'ACKNOWLEDGED'],
            ...result.violations.map((v) => [v.at, v.writer, v.holder, String(v.fence), v.source, v.acknowledged ? 'yes' : 'no']),
          ])}${moreLines(result.violations.length, result.totals.violations, 'violations').map((line) => `\n${line}`).join('')}`;
    const forecastLines =
      result.forecasts.length === 0
        ? ''
        : `\n\nconflict forecast (merging live branches would conflict here)\n${table([
            ['AT', 'FORECAST', 'AGENT', 'BRANCH', 'WITH', 'THEIR BRANCH'],
            ...result.forecasts.map((f) => [f.at, f.status, f.agent, f.branch ?? '(detached)', f.other, f.otherBranch]),
          ])}${moreLines(result.forecasts.length, result.totals.forecasts, 'forecasts').map((line) => `\n${line}`).join('')}`;
    return `${claimLines}${violationLines}${forecastLines}`;
  });
  return 0;
}
