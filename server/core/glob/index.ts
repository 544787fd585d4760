export { PatternError } from './pattern-error.js';
export { normalizePattern, normalizePath, MAX_PATTERN_LENGTH, MAX_BRACE_EXPANSIONS, MAX_GLOBSTARS } from './normalize.js';
export { compilePattern, MATCH_OPTIONS, type CompiledPattern, type PatternRow, type SegmentPart, type GlobstarPart } from './compiled-pattern.js';
export { overlaps, overlapWitness, overlapWithin, matchWithin, UNDECIDED, type Undecided } from './overlap.js';
export { GlobBudget, MAX_PATTERN_COMPLEXITY, MAX_REQUEST_COMPLEXITY, REQUEST_GLOB_BUDGET, PAIR_GLOB_BUDGET } from './glob-budget.js';
export { PrefixIndex } from './prefix-index.js';
export { complexityProblem } from './complexity.js';
