import { compilePattern, overlaps, type CompiledPattern } from '../../server/core/glob/index.js';

/** Memoized overlap of claim patterns, for checkers that replay long logs over a small pattern universe. */
export class PatternOverlaps {
  private readonly compiled = new Map<string, CompiledPattern>();
  private readonly results = new Map<string, boolean>();

  overlaps(a: string, b: string): boolean {
    const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
    let result = this.results.get(key);
    if (result === undefined) {
      result = overlaps(this.compile(a), this.compile(b));
      this.results.set(key, result);
    }
    return result;
  }

  private compile(pattern: string): CompiledPattern {
    let compiled = this.compiled.get(pattern);
    if (!compiled) {
      compiled = compilePattern(pattern);
      this.compiled.set(pattern, compiled);
    }
    return compiled;
  }
}
