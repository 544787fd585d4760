import { parseArgs, type ParseArgsConfig } from 'node:util';
import { MAX_PAGE_SIZE } from '../../contracts/page-size.js';
import { defaultHome } from '../home/default-home.js';
import { UsageError } from './cli-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Options every verb takes. */
export const commonOptions = {
  home: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/** Parses a verb's arguments strictly, so a typo is an error that names it, not a silent no-op. */
export function parseVerbArgs<O extends Options>(argv: string[], options: O, usage: string) {
  try {
    const merged = { ...commonOptions, ...options } as typeof commonOptions & O;
    const parsed = parseArgs({ args: argv, options: merged, allowPositionals: true, strict: true });
    const home = (parsed.values as { home?: string }).home;
    return { ...parsed, home: defaultHome(home !== undefined ? { ...process.env, FLEET_HOME: home } : process.env) };
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nusage: ${usage}`);
  }
}

export function positiveNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new UsageError(`${flag} ${value}: expected a positive number of seconds`);
  return number;
}

export function requireValue(value: string | undefined, flag: string, usage: string): string {
  if (value === undefined || value === '') throw new UsageError(`${flag} is required\nusage: ${usage}`);
  return value;
}

/** `--limit N`: how many items of each list to show, for people (scripts get every page). */
export function pageLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > MAX_PAGE_SIZE) throw new UsageError(`--limit ${value}: expected a whole number from 1 to ${MAX_PAGE_SIZE}`);
  return number;
}
