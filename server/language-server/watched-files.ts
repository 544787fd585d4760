import type { Claim } from '../../contracts/index.js';
import type { OwnershipEntry } from '../../contracts/lsp.js';
import { compilePattern, type CompiledPattern } from '../core/glob/index.js';
import { foldersAbove } from './held-inside.js';
import { ownershipKey, type FileOwnership } from './ownership.js';
import type { FileLocation } from './workspace-scopes.js';

interface Watched {
  location: FileLocation | undefined;
  /** ownershipKey of what the extension was last told about this file. */
  sent: string;
}

/** A changed claim, ready to test which watched paths it can touch. */
interface Touch {
  pattern: CompiledPattern;
  /** The folders it lies inside: their "held inside" hint counts it. */
  folders: Set<string>;
}

/**
 * The files the extension knows an ownership for (it asked, for a badge or the edit guard) or that
 * are open: after a change in territory, only those the changed claims cover (or lie inside, for
 * a folder) are recomputed, and only those whose ownership differs from what the extension was
 * told are sent. Nothing walks the file tree.
 */
export class WatchedFiles {
  private readonly files = new Map<string, Watched>();

  constructor(private readonly compute: (location: FileLocation) => FileOwnership) {}

  /** Answers for `uri` and remembers what was answered. */
  lookup(uri: string, location: FileLocation | undefined): FileOwnership {
    const answer: FileOwnership = location ? this.compute(location) : { ownership: null };
    this.files.set(uri, { location, sent: ownershipKey(answer) });
    return answer;
  }

  /** The entries that changed because `changedClaims` did (or everything, when `all`). */
  changes(changedClaims: readonly Claim[], all: boolean): OwnershipEntry[] {
    const touched = all ? undefined : touchesByScope(changedClaims);
    const entries: OwnershipEntry[] = [];
    for (const [uri, watched] of this.files) {
      const location = watched.location;
      if (!location) continue;
      if (touched && !touched.get(location.scope)?.some((touch) => touches(touch, location.path))) continue;
      const answer = this.compute(location);
      const key = ownershipKey(answer);
      if (key === watched.sent) continue;
      watched.sent = key;
      entries.push({ uri, ...answer });
    }
    return entries;
  }
}

function touches(touch: Touch, path: string): boolean {
  return touch.folders.has(path) || touch.pattern.matches(path) || touch.pattern.matches(`${path}/\u200b`);
}

function touchesByScope(claims: readonly Claim[]): Map<string, Touch[]> {
  const byScope = new Map<string, Touch[]>();
  for (const claim of claims) {
    let touches = byScope.get(claim.scope);
    if (!touches) byScope.set(claim.scope, (touches = []));
    try {
      touches.push({ pattern: compilePattern(claim.pattern), folders: new Set(foldersAbove(claim.pattern)) });
    } catch {
      // The plane stores only patterns it accepted; one it cannot compile covers nothing here.
    }
  }
  return byScope;
}
