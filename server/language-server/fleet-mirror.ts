import type { Agent, Claim, Control, Result, WorkItem } from '../../contracts/index.js';
import { TerritoryIndex } from '../core/territory-index.js';
import type { ClaimRecord } from '../core/state.js';

/** A status with every page gathered. */
export type PlaneStatus = Omit<Result<'fleet_status'>, 'nextCursor'>;

/**
 * The language server's copy of what the plane holds: control, roster and live claims, with the
 * same prefix index the plane uses so a file's holders are found without scanning every claim.
 */
export class FleetMirror {
  control: Control | null = null;
  plane: PlaneStatus['plane'] | undefined;
  /** The work queue, reloaded only after work events (fleet_work_list). */
  work: WorkItem[] = [];
  private agents: Agent[] = [];
  private readonly claims = new Map<string, Claim>();
  private readonly index = new TerritoryIndex();

  get roster(): readonly Agent[] {
    return this.agents;
  }

  get liveClaims(): Iterable<Claim> {
    return this.claims.values();
  }

  claim(id: string): Claim | undefined {
    return this.claims.get(id);
  }

  /**
   * Takes a fresh status snapshot and returns the claims whose effect on files changed: added,
   * released, or altered in holder, mode, reason or (for TTL claims) expiry. Agent-bound claims
   * move their expiry with every heartbeat; that alone changes nothing a file shows.
   */
  apply(status: PlaneStatus): Claim[] {
    this.control = status.controlDetail;
    this.plane = status.plane;
    this.agents = status.agents;
    const changed: Claim[] = [];
    const next = new Map(status.claims.map((claim) => [claim.id, claim]));
    for (const [id, old] of this.claims) {
      const now = next.get(id);
      if (now && fileKey(now) === fileKey(old)) continue;
      changed.push(old);
      this.index.remove(asRecord(old));
    }
    for (const [id, claim] of next) {
      const old = this.claims.get(id);
      if (old && fileKey(old) === fileKey(claim)) continue;
      changed.push(claim);
      this.index.add(asRecord(claim));
    }
    this.claims.clear();
    for (const [id, claim] of next) this.claims.set(id, claim);
    return changed;
  }

  /** The live claims of `scope` whose pattern matches the repository-relative `path`. */
  covering(scope: string, path: string): Claim[] {
    const found: Claim[] = [];
    for (const record of this.index.covering(scope, path)) {
      const claim = this.claims.get(record.id);
      if (claim) found.push(claim);
    }
    return found;
  }
}

function fileKey(claim: Claim): string {
  return JSON.stringify([claim.scope, claim.pattern, claim.mode, claim.holder, claim.reason ?? null, claim.ttlSeconds !== undefined ? claim.expiresAt : null]);
}

/** The index only reads id, scope and pattern; the rest is filled in from the public shape. */
function asRecord(claim: Claim): ClaimRecord {
  return {
    id: claim.id,
    agentId: claim.agentId,
    scope: claim.scope,
    pattern: claim.pattern,
    mode: claim.mode,
    fence: claim.fence,
    grantedAt: Date.parse(claim.grantedAt),
    ...(claim.reason !== undefined && { reason: claim.reason }),
  };
}
