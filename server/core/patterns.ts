import { FleetError } from '../../contracts/index.js';
import { compilePattern, normalizePath, normalizePattern, PatternError, type CompiledPattern } from './glob/index.js';

/** Turns a caller's pattern into a compiled one, or a clear INVALID_PARAMS error naming it. */
export function compileClaimPattern(input: string): CompiledPattern {
  try {
    return compilePattern(normalizePattern(input));
  } catch (error) {
    if (error instanceof PatternError) throw new FleetError('INVALID_PARAMS', error.message, { pattern: input });
    throw error;
  }
}

export function checkedPath(input: string): string {
  try {
    return normalizePath(input);
  } catch (error) {
    if (error instanceof PatternError) throw new FleetError('INVALID_PARAMS', error.message, { path: input });
    throw error;
  }
}

/** Canonical text of a pattern, as stored on claims (release by pattern compares these). */
export function canonicalPattern(input: string): string {
  return compileClaimPattern(input).source;
}
