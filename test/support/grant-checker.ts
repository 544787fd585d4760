// An independent referee for territory: replays the plane's event log and checks the invariants of
// DESIGN.md §5 at every event, with its own bookkeeping (only the glob overlap test is shared with
// the plane, and that has its own brute-force cross-check in the unit tests).
import type { ClaimMode, FleetEvent } from '../../contracts/index.js';
import { PatternOverlaps } from './pattern-overlaps.js';

export type ViolationKind =
  /** Invariant 1: a grant overlapped a live claim of another agent and not both were shared. */
  | 'overlap'
  /** Invariant 3: a grant's fence did not exceed every earlier fence of its scope. */
  | 'fence'
  /** A claim id granted twice. */
  | 'duplicate-id'
  /** The log's seqs skip or repeat. */
  | 'seq'
  /** A renewal or release of a claim that is not live. */
  | 'phantom'
  /** A grant was decided while a TTL claim whose deadline had passed was still live (the sweep runs first). */
  | 'lapsed'
  /** Invariant 4: an `expired` release or agent expiry before its deadline. */
  | 'early-expiry'
  /** A grant to an agent that has left, expired or never joined. */
  | 'gone-agent'
  /** An agent left or expired while it still held live claims. */
  | 'orphan';

export interface Violation {
  kind: ViolationKind;
  seq: number;
  message: string;
}

export interface CheckedClaim {
  id: string;
  agentId: string;
  scope: string;
  pattern: string;
  mode: ClaimMode;
  fence: number;
  grantedSeq: number;
  requestId?: string;
  /** The TTL deadline (plane time, ms), when the claim has one. */
  expiresAt?: number;
  /** Set while the claim travels with a pending handoff: it outlives its agent until settled. */
  escrow?: string;
}

interface AgentTrack {
  /** A lower bound of the plane's `lastSeen`: the time of the agent's latest logged action. */
  lastActivity: number;
  gone?: 'left' | 'expired';
}

type Granted = Extract<FleetEvent, { type: 'claim.granted' }>;

export interface CheckerOptions {
  /** The plane's FLEET_AGENT_TTL in ms: agents expire after twice it, restarts grant at least it. */
  agentTtlMs: number;
  /** Stop recording after this many violations (the count keeps going). */
  keepViolations?: number;
}

export class GrantChecker {
  readonly live = new Map<string, CheckedClaim>();
  /** Every grant ever seen, by claim id. */
  readonly grants = new Map<string, Granted>();
  /** How each claim ended, by claim id. */
  readonly endings = new Map<string, { reason: string; seq: number }>();
  readonly violations: Violation[] = [];
  violationCount = 0;
  readonly stats = { events: 0, grants: 0, renewals: 0, releases: {} as Record<string, number>, agentExpiries: 0, planeStarts: 0, maxLive: 0 };
  private readonly agents = new Map<string, AgentTrack>();
  private readonly maxFence = new Map<string, number>();
  private readonly patterns = new PatternOverlaps();
  private readonly reportedLapsed = new Set<string>();
  private lastSeq: number | undefined;

  constructor(private readonly options: CheckerOptions) {}

  get lastCheckedSeq(): number | undefined {
    return this.lastSeq;
  }

  /** Highest fence issued so far in `scope` (0 before any). */
  fenceOf(scope: string): number {
    return this.maxFence.get(scope) ?? 0;
  }

  applyAll(events: Iterable<FleetEvent>): this {
    for (const event of events) this.apply(event);
    return this;
  }

  apply(event: FleetEvent): void {
    this.stats.events++;
    if (this.lastSeq !== undefined && event.seq !== this.lastSeq + 1) {
      this.violate('seq', event.seq, `seq ${event.seq} follows seq ${this.lastSeq}`);
    }
    this.lastSeq = event.seq;
    switch (event.type) {
      case 'plane.started':
        this.planeStarted(event.at);
        return;
      case 'agent.joined':
        this.agents.set(event.agentId, { lastActivity: event.at });
        return;
      case 'agent.rejoined': {
        const agent = this.agent(event.agentId);
        agent.gone = undefined;
        agent.lastActivity = Math.max(agent.lastActivity, event.at);
        return;
      }
      case 'agent.heartbeat':
        this.touch(event.agentId, event.at);
        return;
      case 'agent.left':
      case 'agent.expired':
        this.agentGone(event);
        return;
      case 'claim.granted':
        this.granted(event);
        return;
      case 'claim.renewed': {
        const claim = this.live.get(event.claimId);
        this.stats.renewals++;
        if (!claim) {
          this.violate('phantom', event.seq, `claim.renewed for ${event.claimId}, which is not live (${this.fate(event.claimId)})`);
          return;
        }
        claim.expiresAt = event.expiresAt;
        this.touch(claim.agentId, event.at); // only the holder renews its claims
        return;
      }
      case 'claim.released':
        this.released(event);
        return;
      case 'claim.escrowed':
      case 'claim.unescrowed': {
        const claim = this.live.get(event.claimId);
        if (!claim) {
          this.violate('phantom', event.seq, `${event.type} for ${event.claimId}, which is not live (${this.fate(event.claimId)})`);
          return;
        }
        if (event.type === 'claim.escrowed') claim.escrow = event.handoffId;
        else delete claim.escrow;
        return;
      }
      default:
        return;
    }
  }

  private planeStarted(at: number): void {
    this.stats.planeStarts++;
    // Mirrors the documented restart rule: the plane was down, not the agents, so every live agent
    // and TTL claim gets at least one agent TTL from the restart.
    for (const agent of this.agents.values()) if (!agent.gone) agent.lastActivity = Math.max(agent.lastActivity, at);
    for (const claim of this.live.values()) {
      if (claim.expiresAt !== undefined) claim.expiresAt = Math.max(claim.expiresAt, at + this.options.agentTtlMs);
    }
  }

  private agentGone(event: Extract<FleetEvent, { type: 'agent.left' | 'agent.expired' }>): void {
    const agent = this.agent(event.agentId);
    if (event.type === 'agent.expired') {
      this.stats.agentExpiries++;
      const deadline = agent.lastActivity + 2 * this.options.agentTtlMs;
      if (event.at < deadline) {
        this.violate('early-expiry', event.seq, `agent ${event.agentId} expired at ${event.at}, ${deadline - event.at} ms before twice the TTL after its last logged action`);
      }
    }
    // Claims in escrow are settled by their handoff, not by their agent's departure.
    const held = [...this.live.values()].filter((c) => c.agentId === event.agentId && c.escrow === undefined);
    if (held.length > 0) {
      this.violate('orphan', event.seq, `agent ${event.agentId} ${event.type === 'agent.left' ? 'left' : 'expired'} still holding ${held.map((c) => `${c.id} (${c.pattern})`).join(', ')}`);
    }
    agent.gone = event.type === 'agent.left' ? 'left' : 'expired';
  }

  private granted(event: Granted): void {
    this.stats.grants++;
    if (this.grants.has(event.claimId)) this.violate('duplicate-id', event.seq, `claim id ${event.claimId} granted a second time`);
    this.grants.set(event.claimId, event);
    const agent = this.agents.get(event.agentId);
    if (!agent || agent.gone) {
      this.violate('gone-agent', event.seq, `claim ${event.claimId} granted to agent ${event.agentId}, which ${agent ? `has ${agent.gone}` : 'never joined'}`);
    }
    const previous = this.fenceOf(event.scope);
    if (event.fence <= previous) {
      this.violate('fence', event.seq, `claim ${event.claimId} got fence ${event.fence} in scope ${event.scope}, but fence ${previous} was already issued there`);
    }
    this.maxFence.set(event.scope, Math.max(previous, event.fence));
    for (const claim of this.live.values()) {
      if (claim.expiresAt !== undefined && claim.expiresAt <= event.at && !this.reportedLapsed.has(claim.id)) {
        this.reportedLapsed.add(claim.id);
        this.violate('lapsed', event.seq, `claim ${claim.id} (${claim.pattern}) was still live at ${event.at}, ${event.at - claim.expiresAt} ms past its deadline, when ${event.claimId} was granted`);
      }
      if (claim.scope !== event.scope || claim.agentId === event.agentId) continue;
      if (claim.mode === 'shared' && event.mode === 'shared') continue;
      if (this.patterns.overlaps(claim.pattern, event.pattern)) {
        this.violate(
          'overlap',
          event.seq,
          `double grant: ${event.claimId} (${event.mode} "${event.pattern}", agent ${event.agentId}, fence ${event.fence}) overlaps live ${claim.id} (${claim.mode} "${claim.pattern}", agent ${claim.agentId}, fence ${claim.fence}, granted at seq ${claim.grantedSeq})`,
        );
      }
    }
    if (event.transferredFrom === undefined) this.touch(event.agentId, event.at);
    this.live.set(event.claimId, {
      id: event.claimId,
      agentId: event.agentId,
      scope: event.scope,
      pattern: event.pattern,
      mode: event.mode,
      fence: event.fence,
      grantedSeq: event.seq,
      ...(event.requestId !== undefined && { requestId: event.requestId }),
      ...(event.expiresAt !== undefined && { expiresAt: event.expiresAt }),
    });
    this.stats.maxLive = Math.max(this.stats.maxLive, this.live.size);
  }

  private released(event: Extract<FleetEvent, { type: 'claim.released' }>): void {
    this.stats.releases[event.reason] = (this.stats.releases[event.reason] ?? 0) + 1;
    const claim = this.live.get(event.claimId);
    if (!claim) {
      this.violate('phantom', event.seq, `claim.released (${event.reason}) for ${event.claimId}, which is not live (${this.fate(event.claimId)})`);
      return;
    }
    if (event.reason === 'expired') {
      // Either its own TTL ran out, or its agent expired (which takes all its claims with it).
      const ownDeadline = claim.expiresAt ?? Infinity;
      const agentDeadline = this.agent(claim.agentId).lastActivity + 2 * this.options.agentTtlMs;
      if (event.at < Math.min(ownDeadline, agentDeadline)) {
        this.violate(
          'early-expiry',
          event.seq,
          `claim ${claim.id} (${claim.pattern}) released as expired at ${event.at}: its TTL deadline is ${claim.expiresAt ?? 'none'}, its agent's is ${agentDeadline}`,
        );
      }
    } else if (event.reason === 'released') {
      this.touch(claim.agentId, event.at);
    }
    this.live.delete(claim.id);
    this.endings.set(claim.id, { reason: event.reason, seq: event.seq });
  }

  private touch(agentId: string, at: number): void {
    const agent = this.agent(agentId);
    agent.lastActivity = Math.max(agent.lastActivity, at);
  }

  private agent(agentId: string): AgentTrack {
    let agent = this.agents.get(agentId);
    if (!agent) {
      agent = { lastActivity: -Infinity };
      this.agents.set(agentId, agent);
    }
    return agent;
  }

  private fate(claimId: string): string {
    const ending = this.endings.get(claimId);
    if (ending) return `it ended with reason ${ending.reason} at seq ${ending.seq}`;
    return this.grants.has(claimId) ? 'it is not live' : 'it was never granted';
  }

  private violate(kind: ViolationKind, seq: number, message: string): void {
    this.violationCount++;
    if (this.violations.length < (this.options.keepViolations ?? 50)) this.violations.push({ kind, seq, message });
  }
}

/** A readable summary of violations for an assertion message. */
export function describeViolations(checker: GrantChecker, limit = 10): string {
  const lines = checker.violations.slice(0, limit).map((v) => `  [${v.kind}] seq ${v.seq}: ${v.message}`);
  const more = checker.violationCount - lines.length;
  return `${checker.violationCount} violation(s):\n${lines.join('\n')}${more > 0 ? `\n  … and ${more} more` : ''}`;
}
