import type { PlaneAddress } from '../../server/client/plane-client.js';
import { compilePattern, normalizePattern, type CompiledPattern } from '../../server/core/glob/index.js';

/**
 * One way for an agent process to reserve files: the plane, or a baseline a user would pick
 * instead. `claim` is all-or-nothing over one exclusive pattern; `release` gives it back.
 * Both resolve only once the change is durable (except the echo floor's agent, which writes nothing).
 */
export interface ClaimSystem {
  claim(pattern: string): Promise<Grant> | Grant;
  release(id: string): Promise<void> | void;
  /** fdatasyncs this agent issued itself (the baselines' writers); the plane counts its own. */
  readonly fsyncs: number;
  /** claim and release block the process until done (better-sqlite3) instead of returning promises. */
  readonly synchronous?: true;
  close(): Promise<void> | void;
}

export interface Grant {
  granted: boolean;
  id?: string;
}

/** `echo` is no claim system: the throughput floor (bench/agents/echo-agent.ts). */
export type SystemName = 'plane' | 'echo' | 'sqlite' | 'ledger' | 'ledger-unlocked';

export interface SystemConfig {
  system: SystemName;
  /** Agent index: its callsign, its own package and its random seed. */
  index: number;
  /** The plane (and the echo floor's peer): where it listens, token and repository root. */
  address?: PlaneAddress;
  token?: string;
  root?: string;
  /** The baselines: the shared SQLite file, or the JSON ledger file. */
  path?: string;
  /** Share of cycles on the shared files (default OVERLAP_SHARE; the detector's control uses 1). */
  overlapShare?: number;
}

/**
 * The baselines decide overlap with the same glob semantics as the plane (the plane's own glob
 * library), so all three answer the same question; compiled patterns are cached, as any
 * implementation that cares about speed would.
 */
export class PatternCache {
  private readonly compiled = new Map<string, CompiledPattern>();

  get(pattern: string): CompiledPattern {
    let found = this.compiled.get(pattern);
    if (!found) {
      found = compilePattern(normalizePattern(pattern));
      this.compiled.set(pattern, found);
    }
    return found;
  }
}
