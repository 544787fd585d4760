import { FleetError } from '../../contracts/index.js';
import { compilePattern, complexityProblem, normalizePath, normalizePattern, PatternError, type CompiledPattern } from './glob/index.js';

/**
 * Turns a caller's new pattern into a compiled one, or a clear error naming it: INVALID_PARAMS
 * for what territory semantics refuse, PATTERN_TOO_COMPLEX for what the glob budget cannot afford.
 */
export function compileClaimPattern(input: string): CompiledPattern {
  const normalized = canonicalPattern(input);
  // Judged before compiling: compiling a pathological pattern is slow in itself.
  const problem = complexityProblem(normalized);
  if (problem !== undefined) throw new FleetError('PATTERN_TOO_COMPLEX', problem, { pattern: input });
  return refusedAsInvalid(() => compilePattern(normalized), { pattern: input });
}

/**
 * Compiles a pattern the state already records (a claim, a work item's path): it was accepted
 * when recorded, and a limit added later never refuses it (DESIGN §12: grandfathered).
 */
export function compileRecordedPattern(normalized: string): CompiledPattern {
  return compilePattern(normalized);
}

export function checkedPath(input: string): string {
  return refusedAsInvalid(() => normalizePath(input), { path: input });
}

/**
 * Canonical text of a pattern, as stored on claims (release by pattern compares these). Not held to
 * the complexity limit: a grandfathered claim can still be released by its pattern.
 */
export function canonicalPattern(input: string): string {
  return refusedAsInvalid(() => normalizePattern(input), { pattern: input });
}

/** Canonical text of a pattern that will be claimed later (a work item's path): held to the limits now. */
export function claimablePattern(input: string): string {
  return compileClaimPattern(input).source;
}

function refusedAsInvalid<T>(work: () => T, data: Record<string, string>): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof PatternError) throw new FleetError('INVALID_PARAMS', error.message, data);
    throw error;
  }
}
