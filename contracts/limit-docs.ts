import { limits, type LimitName } from './limits.js';
import { MAX_FRAME_BYTES } from './protocol.js';

/** docs/limits.md, rendered from the one table of limits (contracts/limits.ts). */
export function limitDocs(): string {
  const rows = (Object.keys(limits) as LimitName[]).map((name) => {
    const limit = limits[name];
    return `| \`${name}\` | ${limit.max.toLocaleString('en-US')} ${limit.unit} | ${limit.appliesTo} | ${limit.why} |`;
  });
  return [
    '# Limits',
    '',
    'Generated from `contracts/limits.ts` by `npm run generate`; a test keeps the two in step.',
    '',
    'The plane is a single writer: one oversized request would stall every agent (DESIGN §12). So',
    'every string and list a client sends has a bound, checked before any work is done. A value over',
    'its bound is refused with `INVALID_PARAMS` (CLI exit 2), and the message names the parameter and',
    'the limit, e.g. `fleet_agent_join: worktree: 40000 characters is over the limit of 4096 (see',
    'docs/limits.md): shorten it`. A count limit (memos) is refused with `LIMIT_REACHED` (exit 3).',
    `A whole request is also capped at one WebSocket frame of ${MAX_FRAME_BYTES.toLocaleString('en-US')} bytes; a larger frame closes the connection.`,
    '',
    'Limits added later grandfather what is stored: replaying the log never refuses a claim, memo or',
    'record the plane once accepted.',
    '',
    '| limit | at most | applies to | why this value |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
