import { GlobBudget, matchWithin, MAX_PATTERN_COMPLEXITY, overlapWithin, PrefixIndex, UNDECIDED, type CompiledPattern } from './glob/index.js';
import { compileRecordedPattern } from './patterns.js';
import type { ClaimRecord } from './state.js';

interface Entry {
  claim: ClaimRecord;
  compiled: CompiledPattern;
}

/** A live claim that a pattern or path may meet, and whether it does. */
export interface Meeting {
  claim: ClaimRecord;
  /** False when the budget ran out before the answer was known: then the claim is in the way. */
  decided: boolean;
  /** Its pattern is over today's complexity limit: recorded before it, so never refused, only kept safe. */
  grandfathered: boolean;
}

/**
 * Live claims per scope, indexed by literal path prefix so that a conflict check or a path check
 * looks only at claims that could possibly match, never at every live claim. Every comparison is
 * charged to the caller's glob budget; once it runs out, the claims left are reported undecided.
 */
export class TerritoryIndex {
  private readonly scopes = new Map<string, PrefixIndex<string, Entry>>();
  /** The pattern the grant being recorded was compiled to, so the index need not compile it again. */
  private granting: CompiledPattern | undefined;

  add(claim: ClaimRecord): void {
    let index = this.scopes.get(claim.scope);
    if (!index) {
      index = new PrefixIndex<string, Entry>();
      this.scopes.set(claim.scope, index);
    }
    const compiled = this.granting?.source === claim.pattern ? this.granting : compileRecordedPattern(claim.pattern);
    index.add(claim.id, compiled, { claim, compiled });
  }

  /** Runs `record` (which records a grant of `pattern`) so that indexing that claim reuses `pattern`. */
  recordingGrantOf<T>(pattern: CompiledPattern, record: () => T): T {
    this.granting = pattern;
    try {
      return record();
    } finally {
      this.granting = undefined;
    }
  }

  remove(claim: ClaimRecord): void {
    const index = this.scopes.get(claim.scope);
    if (!index) return;
    index.remove(claim.id);
    if (index.size === 0) this.scopes.delete(claim.scope);
  }

  /** The compiled pattern of a live claim. */
  compiledOf(claim: ClaimRecord): CompiledPattern {
    return this.scopes.get(claim.scope)?.get(claim.id)?.compiled ?? compileRecordedPattern(claim.pattern);
  }

  /**
   * Live claims in `scope` for which `matters` holds and that some path matches together with
   * `pattern`, or that the budget could not decide.
   */
  *overlapping(scope: string, pattern: CompiledPattern, budget: GlobBudget, matters: (claim: ClaimRecord) => boolean = () => true): Iterable<Meeting> {
    const index = this.scopes.get(scope);
    if (!index) return;
    for (const entry of index.candidatesOverlapping(pattern)) {
      if (!matters(entry.claim)) continue;
      const outcome = overlapWithin(entry.compiled, pattern, budget);
      if (outcome !== undefined) yield meeting(entry, outcome !== UNDECIDED);
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

  /** Live claims in `scope` whose pattern matches the file `path`, without a budget (the editor's mirror asks one path at a time). */
  *covering(scope: string, path: string): Iterable<ClaimRecord> {
    for (const { claim } of this.coveringWithin(scope, path, GlobBudget.unlimited())) yield claim;
  }

  /** Live claims in `scope` whose pattern matches the file `path`, or that the budget could not decide. */
  *coveringWithin(scope: string, path: string, budget: GlobBudget): Iterable<Meeting> {
    const index = this.scopes.get(scope);
    if (!index) return;
    for (const entry of index.candidatesCovering(path)) {
      const matched = matchWithin(entry.compiled, path, budget);
      if (matched !== false) yield meeting(entry, matched === true);
    }
  }
}

const meeting = (entry: Entry, decided: boolean): Meeting => ({ claim: entry.claim, decided, grandfathered: entry.compiled.complexity > MAX_PATTERN_COMPLEXITY });
