import { compilePattern, overlaps, PrefixIndex, type CompiledPattern } from './glob/index.js';
import type { ClaimRecord } from './state.js';

interface Entry {
  claim: ClaimRecord;
  compiled: CompiledPattern;
}

/**
 * Live claims per scope, indexed by literal path prefix so that a conflict check or a path check
 * looks only at claims that could possibly match, never at every live claim.
 */
export class TerritoryIndex {
  private readonly scopes = new Map<string, PrefixIndex<string, Entry>>();

  add(claim: ClaimRecord): void {
    let index = this.scopes.get(claim.scope);
    if (!index) {
      index = new PrefixIndex<string, Entry>();
      this.scopes.set(claim.scope, index);
    }
    const compiled = compilePattern(claim.pattern);
    index.add(claim.id, compiled, { claim, compiled });
  }

  remove(claim: ClaimRecord): void {
    const index = this.scopes.get(claim.scope);
    if (!index) return;
    index.remove(claim.id);
    if (index.size === 0) this.scopes.delete(claim.scope);
  }

  /** Live claims in `scope` that some path matches together with `pattern`. */
  *overlapping(scope: string, pattern: CompiledPattern): Iterable<ClaimRecord> {
    const index = this.scopes.get(scope);
    if (!index) return;
    for (const entry of index.candidatesOverlapping(pattern)) {
      if (overlaps(entry.compiled, pattern)) yield entry.claim;
    }
  }

  /** Live claims in `scope` with exactly this pattern: they are kept where its first literal prefix ends. */
  *samePattern(scope: string, pattern: CompiledPattern): Iterable<ClaimRecord> {
    const index = this.scopes.get(scope);
    if (!index) return;
    for (const entry of index.entriesAt(pattern.literalPrefixes[0]!)) {
      if (entry.claim.pattern === pattern.source) yield entry.claim;
    }
  }

  /** Live claims in `scope` whose pattern matches the file `path`. */
  *covering(scope: string, path: string): Iterable<ClaimRecord> {
    const index = this.scopes.get(scope);
    if (!index) return;
    for (const entry of index.candidatesCovering(path)) {
      if (entry.compiled.matches(path)) yield entry.claim;
    }
  }
}
