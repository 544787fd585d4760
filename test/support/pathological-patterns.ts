// Patterns that made the overlap check run for minutes before the glob budget (issue 14), and the
// most expensive patterns the budget still allows: for the unit tests, the adversarial test and the bench.
import { compilePattern, MAX_PATTERN_COMPLEXITY, normalizePattern, type CompiledPattern } from '../../server/core/glob/index.js';
import type { SeededRandom } from './seeded-random.js';

const compile = (pattern: string): CompiledPattern => compilePattern(normalizePattern(pattern));

/** Brace groups that multiply into 64 alternatives, the most a pattern may have. */
const SIX_BRACE_GROUPS = '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}';

/** The shapes of issue 14: long `*a` runs, brace groups, `**` mixes; each legal before the budget (≤ 1,024 characters). */
export const PATHOLOGICAL_SHAPES = {
  'star runs': (tail: string) => `${'*a'.repeat(500)}${tail}`,
  'brace groups over star runs': (tail: string) => `${SIX_BRACE_GROUPS}${'*a'.repeat(480)}${tail}`,
  'brace groups over segments': (tail: string) => `${SIX_BRACE_GROUPS}/**/${'a/'.repeat(480)}${tail}`,
  'nested braces': (tail: string) => `{a,{b,{c,{d,{e,{f,g}}}}}}${'{x,y}'.repeat(3)}/${'*a'.repeat(440)}${tail}`,
  'globstar mixes': (tail: string) => `${'**/*a*a*a*a*a*a*a*a*a*a/'.repeat(30)}${'*a'.repeat(150)}${tail}`,
} as const;

export type PathologicalShape = keyof typeof PATHOLOGICAL_SHAPES;

/** A pathological pattern of the given shape, ending in `tail` (so pairs differ only at the end). */
export function pathologicalPattern(shape: PathologicalShape, tail: string): string {
  return PATHOLOGICAL_SHAPES[shape](tail);
}

/** One at random: a shape and a short random tail. */
export function randomPathologicalPattern(random: SeededRandom): string {
  const shape = random.pick(Object.keys(PATHOLOGICAL_SHAPES) as PathologicalShape[]);
  return pathologicalPattern(shape, random.pick(['b', 'c', 'ab', '[bc]', '?', '*']));
}

/** Shapes that grow with `size`, for patterns at the complexity limit. */
const EDGE_SHAPES = [
  (size: number) => '*a'.repeat(size),
  (size: number) => 'a*'.repeat(size),
  (size: number) => `${'*a'.repeat(size)}b`,
  (size: number) => '?[!b]*'.repeat(size),
  (size: number) => `**/${'a*/'.repeat(size)}b`,
  (size: number) => `{a,b}{c,d}/**/${'*a'.repeat(size)}`,
] as const;

export const EDGE_SHAPE_COUNT = EDGE_SHAPES.length;

/** The largest pattern of shape `index` whose complexity is within the limit: the most expensive allowed. */
export function edgePattern(index: number): string {
  const shape = EDGE_SHAPES[index]!;
  let size = 1;
  while (compile(shape(size + 1)).complexity <= MAX_PATTERN_COMPLEXITY) size++;
  return shape(size);
}

/** The smallest pattern of shape `index` over the limit. */
export function justOverEdgePattern(index: number): string {
  const shape = EDGE_SHAPES[index]!;
  let size = 1;
  while (compile(shape(size)).complexity <= MAX_PATTERN_COMPLEXITY) size++;
  return shape(size);
}

/**
 * The most expensive claim the limits allow, and the territory that makes it so: `held` are
 * patterns at the complexity limit that one agent holds shared (so they coexist), `request` is
 * a claim of patterns at the limit by another agent, each of which must be compared with every
 * held one. Its comparisons exceed one request's glob budget, so it burns all of it every time.
 */
export function mostExpensiveAllowedClaim(): { held: string[]; request: string[] } {
  const edges = Array.from({ length: EDGE_SHAPE_COUNT }, (_, i) => edgePattern(i));
  return { held: edges.map((edge) => `${edge.slice(0, -1)}x`), request: edges };
}

/** Long paths that the held patterns of mostExpensiveAllowedClaim may match: each costs a full path match. */
export function expensivePaths(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${'a'.repeat(900)}${i}x`);
}

/** `count` distinct patterns at the complexity limit (the edge shapes, each with several endings). */
export function edgePatterns(count: number): string[] {
  const endings = 'abcdefghijklmnopqrstuvwxyz';
  return Array.from({ length: count }, (_, i) => {
    const edge = edgePattern(i % EDGE_SHAPE_COUNT);
    return `${edge.slice(0, -1)}${endings[Math.floor(i / EDGE_SHAPE_COUNT) % endings.length]}`;
  });
}
