import { UsageError } from './cli-error.js';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * `--since`'s value: a sequence number of the event log (`1234`) or a duration back from now
 * (`90s`, `30m`, `8h`, `1d`, `1h30m`).
 */
export function parseSince(raw: string): { sinceSeq: number } | { sinceSeconds: number } {
  const value = raw.trim();
  if (/^\d+$/.test(value) && Number(value) > 0) return { sinceSeq: Number(value) };
  if (/^(\d+(\.\d+)?[smhd])+$/.test(value)) {
    let seconds = 0;
    for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)([smhd])/g)) seconds += Number(amount) * UNIT_SECONDS[unit!]!;
    if (seconds > 0) return { sinceSeconds: seconds };
  }
  throw new UsageError(`--since ${raw} is neither an event number (e.g. 1234) nor a duration back from now (e.g. 90s, 30m, 8h, 1d, 1h30m)`);
}
