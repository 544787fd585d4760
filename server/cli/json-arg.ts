import { readFileSync } from 'node:fs';
import { UsageError } from './cli-error.js';

/** A JSON value given inline or as @FILE (for artifacts and reports too long for a flag). */
export function jsonArg(value: string, flag: string): unknown {
  const text = value.startsWith('@') ? readFileSync(value.slice(1), 'utf8') : value;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${flag} is not valid JSON (${(error as Error).message}); pass JSON inline or @file.json`);
  }
}
