export { PatternError } from './pattern-error.js';
export { normalizePattern, normalizePath, MAX_PATTERN_LENGTH, MAX_BRACE_EXPANSIONS, MAX_GLOBSTARS } from './normalize.js';
export { compilePattern, MATCH_OPTIONS, type CompiledPattern, type PatternRow, type SegmentPart, type GlobstarPart } from './compiled-pattern.js';
export { overlaps, overlapWitness } from './overlap.js';
export { PrefixIndex } from './prefix-index.js';
