import type { Claim } from '../../contracts/index.js';
import type { Ownership, OwnershipEntry } from '../../contracts/lsp.js';
import { compilePattern, type CompiledPattern } from '../core/glob/index.js';
import { ownershipKey } from './ownership.js';
import type { FileLocation } from './workspace-scopes.js';

interface Watched {
  location: FileLocation | undefined;
  /** ownershipKey of what the extension was last told about this file. */
  sent: string;
}

/**
 * The files the extension knows an ownership for (it asked, for a badge or the edit guard) or that
 * are open: after a change in territory, only those the changed claims cover are recomputed, and
 * only those whose ownership differs from what the extension was told are sent. Nothing walks the
 * file tree.
 */
export class WatchedFiles {
  private readonly files = new Map<string, Watched>();

  constructor(private readonly compute: (location: FileLocation) => Ownership | null) {}

  /** Answers for `uri` and remembers what was answered. */
  lookup(uri: string, location: FileLocation | undefined): Ownership | null {
    const ownership = location ? this.compute(location) : null;
    this.files.set(uri, { location, sent: ownershipKey(ownership) });
    return ownership;
  }

  /** The entries that changed because `changedClaims` did (or everything, when `all`). */
  changes(changedClaims: readonly Claim[], all: boolean): OwnershipEntry[] {
    const touched = all ? undefined : compileByScope(changedClaims);
    const entries: OwnershipEntry[] = [];
    for (const [uri, watched] of this.files) {
      const location = watched.location;
      if (!location) continue;
      if (touched && !touched.get(location.scope)?.some((pattern) => pattern.matches(location.path))) continue;
      const ownership = this.compute(location);
      const key = ownershipKey(ownership);
      if (key === watched.sent) continue;
      watched.sent = key;
      entries.push({ uri, ownership });
    }
    return entries;
  }
}

function compileByScope(claims: readonly Claim[]): Map<string, CompiledPattern[]> {
  const byScope = new Map<string, CompiledPattern[]>();
  for (const claim of claims) {
    let patterns = byScope.get(claim.scope);
    if (!patterns) byScope.set(claim.scope, (patterns = []));
    try {
      patterns.push(compilePattern(claim.pattern));
    } catch {
      // The plane stores only patterns it accepted; one it cannot compile covers nothing here.
    }
  }
  return byScope;
}
