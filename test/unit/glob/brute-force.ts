import { Minimatch } from 'minimatch';
export { seededRandom } from '../../../server/core/seeded-random.js';

/** The options claim patterns are matched with (DESIGN.md §4), restated here so the oracle is independent. */
export const ORACLE_OPTIONS = { dot: true, nocomment: true, nonegate: true, noext: true } as const;

/** Every string over `alphabet` of length 1..maxLength, except "." and ".." (never path segments). */
export function allStrings(alphabet: readonly string[], maxLength: number): string[] {
  const out: string[] = [];
  let level = [''];
  for (let length = 1; length <= maxLength; length++) {
    level = level.flatMap((prefix) => alphabet.map((char) => prefix + char));
    out.push(...level);
  }
  return out.filter((segment) => segment !== '.' && segment !== '..');
}

/**
 * Candidate path segments, with the minimatch verdict of each single-segment glob on each of them
 * cached, so that segments can be grouped by which globs they match.
 */
export class SegmentPool {
  private readonly verdicts = new Map<string, boolean[]>();

  constructor(readonly segments: readonly string[]) {}

  matchesOf(glob: string): boolean[] {
    let verdicts = this.verdicts.get(glob);
    if (!verdicts) {
      const matcher = new Minimatch(glob, ORACLE_OPTIONS);
      verdicts = this.segments.map((segment) => matcher.match(segment));
      this.verdicts.set(glob, verdicts);
    }
    return verdicts;
  }
}

/**
 * Searches for a path matching both patterns by minimatch alone: paths of up to `maxDepth` segments
 * from the pool, one representative per group of segments that the two patterns' segment globs
 * cannot tell apart, pruning a branch as soon as minimatch's partial match rules either pattern out.
 */
export function bruteForceWitness(a: string, b: string, pool: SegmentPool, maxDepth: number): string | undefined {
  const matchers = [new Minimatch(a, ORACLE_OPTIONS), new Minimatch(b, ORACLE_OPTIONS)];
  const globs = [...new Set(matchers.flatMap((m) => m.globParts.flat()).filter((glob) => glob !== '**'))];
  const columns = globs.map((glob) => pool.matchesOf(glob));
  const representatives = new Map<string, string>();
  pool.segments.forEach((segment, s) => {
    const signature = columns.map((column) => (column[s] ? '1' : '0')).join('');
    if (!representatives.has(signature)) representatives.set(signature, segment);
  });
  const choices = [...representatives.values()];
  const search = (prefix: string, depth: number): string | undefined => {
    for (const segment of choices) {
      const path = prefix === '' ? segment : `${prefix}/${segment}`;
      if (matchers.every((m) => m.match(path))) return path;
      if (depth < maxDepth && matchers.every((m) => m.match(path, true))) {
        const found = search(path, depth + 1);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return search('', 1);
}

/** Segments for two arbitrary patterns: short strings over their characters, plus each segment glob filled in. */
export function poolFor(a: string, b: string): SegmentPool {
  const globs = [a, b].flatMap((p) => p.split('/')).filter((glob) => glob !== '**');
  const alphabet = new Set(['z', 'Q', '0', '.']);
  for (const char of a + b) if (!'/*?[]{},!^'.includes(char)) alphabet.add(char);
  for (const [, lo, hi] of (a + b).matchAll(/(.)-(.)/gu)) {
    alphabet.add(String.fromCodePoint(lo!.codePointAt(0)! - 1));
    alphabet.add(String.fromCodePoint(hi!.codePointAt(0)! + 1));
  }
  const chars = [...alphabet];
  const runs = [...new Set(globs.flatMap((glob) => glob.split(/[*?]|\[[^\]]*\]|[{},]/)).filter((run) => run !== ''))];
  const fillers = ['', ...chars, ...runs];
  const instances = globs.flatMap((glob) => {
    let out = [''];
    for (const piece of glob.match(/\*|\?|\[[^\]]+\]|./gu) ?? []) {
      const choices = piece === '*' ? fillers : piece === '?' ? chars : piece.length > 1 && piece.startsWith('[') ? [...piece.slice(1, -1)].concat(chars) : [piece];
      out = out.flatMap((prefix) => choices.map((choice) => prefix + choice)).slice(0, 400);
    }
    return out;
  });
  const shortLength = chars.length <= 8 ? 3 : 2;
  return new SegmentPool([...new Set([...allStrings(chars, shortLength), ...instances])].filter(isRepositoryPath));
}

/** Whether `path` is a path the overlap is defined over: one or more segments, none "", "." or "..". */
export function isRepositoryPath(path: string): boolean {
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** Whether minimatch matches `path` against `pattern` with the claim options. */
export function oracleMatches(pattern: string, path: string): boolean {
  return new Minimatch(pattern, ORACLE_OPTIONS).match(path);
}
