// The crash suite's memory: every grant and release the plane acknowledged, every request that
// was still in flight when the plane was killed, and the checks a restarted plane must pass
// against them (DESIGN.md §5, invariant 5: kill -9 loses nothing that was acknowledged).
import type { ClaimMode, FleetEvent, Result } from '../../contracts/index.js';

export interface LedgerClaim {
  id: string;
  agentId: string;
  pattern: string;
  mode: ClaimMode;
  fence: number;
}

/** A claim request sent but not answered: after a kill it may or may not have been applied. */
export interface PendingClaim {
  agentId: string;
  requestId: string;
  patterns: string[];
  mode: ClaimMode;
}

/** A release sent but not answered: by ids, or by pattern (every claim of the agent with it). */
export interface PendingRelease {
  agentId: string;
  ids: string[];
  pattern?: string;
}

/** What the log says about claims, indexed for the post-restart checks. */
export interface LogIndex {
  grants: Map<string, { agentId: string; pattern: string; mode: ClaimMode; fence: number; requestId?: string }>;
  endings: Map<string, string>;
  byRequest: Map<string, string[]>;
  maxFence: number;
  lastSeq: number;
}

export function indexLog(events: readonly FleetEvent[]): LogIndex {
  const index: LogIndex = { grants: new Map(), endings: new Map(), byRequest: new Map(), maxFence: 0, lastSeq: 0 };
  for (const event of events) {
    index.lastSeq = event.seq;
    if (event.type === 'claim.granted') {
      index.grants.set(event.claimId, { agentId: event.agentId, pattern: event.pattern, mode: event.mode, fence: event.fence, ...(event.requestId !== undefined && { requestId: event.requestId }) });
      index.maxFence = Math.max(index.maxFence, event.fence);
      if (event.requestId !== undefined) {
        const key = `${event.agentId} ${event.requestId}`;
        index.byRequest.set(key, [...(index.byRequest.get(key) ?? []), event.claimId]);
      }
    } else if (event.type === 'claim.released') {
      index.endings.set(event.claimId, event.reason);
    }
  }
  return index;
}

export class CrashLedger {
  /** Acknowledged (or, after a restart, confirmed) live claims. */
  readonly live = new Map<string, LedgerClaim>();
  /** Every grant ever acknowledged, live or not, to be found in the log at the end. */
  readonly acked = new Map<string, LedgerClaim>();
  /** Claims whose release was acknowledged: they must never come back. */
  readonly released = new Set<string>();
  /** Every claim id the tests have seen issued, acknowledged or not. */
  readonly known = new Set<string>();
  /** The highest fence known to have been issued: every new grant must exceed it. */
  maxFence = 0;
  readonly pendingClaims = new Set<PendingClaim>();
  readonly pendingReleases = new Set<PendingRelease>();
  /** What was in flight at the last kill. */
  uncertainClaims: PendingClaim[] = [];
  uncertainReleases: PendingRelease[] = [];
  readonly violations: string[] = [];
  readonly counts = { grantsAcked: 0, releasesAcked: 0, refused: 0, adoptedUnacked: 0, releasedUnacked: 0, retriedSame: 0, retriedFresh: 0 };

  violation(message: string): void {
    if (this.violations.length < 100) this.violations.push(message);
  }

  heldBy(agentId: string): LedgerClaim[] {
    const pending = new Set([...this.pendingReleases].filter((r) => r.agentId === agentId).flatMap((r) => r.ids));
    return [...this.live.values()].filter((c) => c.agentId === agentId && !pending.has(c.id));
  }

  /** A grant acknowledged to `agentId`; `floor` is the highest fence known when it was requested. */
  granted(agentId: string, mode: ClaimMode, claims: Result<'fleet_claim_path'>['claims'], floor: number, context: string): void {
    for (const c of claims) {
      if (!this.known.has(c.id) && c.fence <= floor) {
        this.violation(`${context}: new claim ${c.id} (${c.pattern}) got fence ${c.fence}, not above fence ${floor} already issued before it was requested`);
      }
      if (this.released.has(c.id)) this.violation(`${context}: claim ${c.id} was granted again after its release was acknowledged`);
      this.known.add(c.id);
      this.maxFence = Math.max(this.maxFence, c.fence);
      const claim = { id: c.id, agentId, pattern: c.pattern, mode, fence: c.fence };
      this.live.set(c.id, claim);
      this.acked.set(c.id, claim);
      this.counts.grantsAcked++;
    }
  }

  releasedAck(ids: readonly string[]): void {
    for (const id of ids) {
      this.live.delete(id);
      this.released.add(id);
      this.counts.releasesAcked++;
    }
  }

  /** The plane was killed: whatever was in flight is now uncertain. */
  crashed(): void {
    this.uncertainClaims = [...this.pendingClaims];
    this.uncertainReleases = [...this.pendingReleases];
    this.pendingClaims.clear();
    this.pendingReleases.clear();
  }

  /**
   * After a restart: the plane's live claims must hold every acknowledged grant not acknowledged
   * released (unless a release in flight at the kill is in the log), none acknowledged released,
   * and nothing that no request could have produced.
   */
  verifyRestart(status: Result<'fleet_status'>, log: LogIndex, round: number): void {
    const where = `after restart ${round}`;
    const onPlane = new Map(status.claims.map((c) => [c.id, c]));
    const maybeReleased = (c: LedgerClaim) => this.uncertainReleases.some((r) => r.agentId === c.agentId && (r.ids.includes(c.id) || r.pattern === c.pattern));
    for (const claim of [...this.live.values()]) {
      const found = onPlane.get(claim.id);
      if (found) {
        if (found.agentId !== claim.agentId || found.fence !== claim.fence || found.pattern !== claim.pattern || found.mode !== claim.mode) {
          this.violation(`${where}: claim ${claim.id} was acknowledged as ${JSON.stringify(claim)} but the plane has ${JSON.stringify(found)}`);
        }
        continue;
      }
      const ending = log.endings.get(claim.id);
      if (ending === 'released' && maybeReleased(claim)) {
        this.live.delete(claim.id);
        this.counts.releasedUnacked++;
        continue;
      }
      this.violation(
        `${where}: acknowledged claim ${claim.id} (${claim.pattern}, fence ${claim.fence}) is gone; ` +
          `the log ${log.grants.has(claim.id) ? `grants it${ending ? ` and ends it with reason ${ending}` : ' and never ends it'}` : 'never grants it'}`,
      );
      this.live.delete(claim.id);
    }
    for (const id of this.released) {
      if (onPlane.has(id)) this.violation(`${where}: claim ${id} is live again although its release was acknowledged`);
    }
    for (const claim of status.claims) {
      if (this.live.has(claim.id) || this.released.has(claim.id)) continue;
      const fromRequest = this.uncertainClaims.some((p) => p.agentId === claim.agentId && p.mode === claim.mode && p.patterns.includes(claim.pattern));
      if (!fromRequest) {
        this.violation(`${where}: the plane holds claim ${claim.id} (${claim.pattern}, ${claim.holder}) that no request could have produced`);
        continue;
      }
      // Granted and made durable, but the answer died with the plane: it is real now.
      this.live.set(claim.id, { id: claim.id, agentId: claim.agentId, pattern: claim.pattern, mode: claim.mode, fence: claim.fence });
      this.counts.adoptedUnacked++;
    }
    for (const id of log.grants.keys()) this.known.add(id);
    this.maxFence = Math.max(this.maxFence, log.maxFence);
    for (const claim of status.claims) {
      if (claim.fence > this.maxFence) this.violation(`${where}: claim ${claim.id} has fence ${claim.fence}, above every fence in the log (${log.maxFence})`);
    }
  }
}
