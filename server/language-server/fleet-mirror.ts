import { DEFAULT_AGENT_TTL_SECONDS, type Agent, type AgentStatus, type Claim, type Control, type FleetEvent, type Result, type StoreHealth, type WorkItem } from '../../contracts/index.js';
import type { ViewAgent } from '../../contracts/lsp.js';
import { TerritoryIndex } from '../core/territory-index.js';
import type { ClaimRecord } from '../core/state.js';
import { AgentMarks } from './agent-marks.js';
import { HeldInside } from './held-inside.js';
import { MirrorChanges } from './mirror-changes.js';
import { applyWorkEvent } from './mirror-work.js';

/** A status with every page gathered. */
export type PlaneStatus = Omit<Result<'fleet_status'>, 'nextCursor'>;

type ReportedStatus = Extract<AgentStatus, 'active' | 'idle' | 'blocked'>;

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The language server's copy of what the plane holds: control, roster, live claims and the work
 * queue. Loaded whole at start-up (and after a gap in the events), then kept current by applying
 * each event, which records what it changed in a MirrorChanges for the editor. Claims sit in the
 * same prefix index the plane uses, so a file's holders are found without scanning every claim.
 */
export class FleetMirror {
  control: Control | null = null;
  plane: PlaneStatus['plane'] | undefined;
  /** The state's seq the loaded status reflects: events at or below it are already in. */
  seq = 0;
  private readonly agents = new Map<string, Agent>();
  /** What each agent last reported (active, idle, blocked): its status again after a heartbeat. */
  private readonly reported = new Map<string, ReportedStatus>();
  /** Agents that left the roster this session: a re-join brings them back as they were. */
  private readonly gone = new Map<string, Agent>();
  private readonly claims = new Map<string, Claim>();
  private readonly workItems = new Map<string, WorkItem>();
  private readonly index = new TerritoryIndex();
  private readonly inside = new HeldInside();
  private readonly marks = new AgentMarks();

  get roster(): ViewAgent[] {
    return [...this.agents.values()].map((agent) => this.viewAgent(agent));
  }

  get liveClaims(): Iterable<Claim> {
    return this.claims.values();
  }

  get work(): WorkItem[] {
    return [...this.workItems.values()];
  }

  claim(id: string): Claim | undefined {
    return this.claims.get(id);
  }

  agent(id: string): ViewAgent | undefined {
    const agent = this.agents.get(id);
    return agent && this.viewAgent(agent);
  }

  workItem(id: string): WorkItem | undefined {
    return this.workItems.get(id);
  }

  markOf(agentId: string): string | undefined {
    return this.marks.of(agentId);
  }

  /** Replaces everything with a fresh status and work list (start-up, reconnect, after a gap). */
  load(status: PlaneStatus, work: readonly WorkItem[]): void {
    this.control = status.controlDetail;
    this.plane = status.plane;
    this.seq = status.plane.seq;
    this.agents.clear();
    this.gone.clear();
    this.reported.clear();
    this.marks.clear();
    // Marks go out in join order, so two windows that load the same roster agree.
    for (const agent of [...status.agents].sort((a, b) => a.joinedAt.localeCompare(b.joinedAt) || a.agentId.localeCompare(b.agentId))) {
      this.agents.set(agent.agentId, agent);
      if (agent.status === 'active' || agent.status === 'idle' || agent.status === 'blocked') this.reported.set(agent.agentId, agent.status);
      this.marks.assign(agent.agentId, agent.callsign);
    }
    for (const claim of this.claims.values()) this.unindex(claim);
    this.claims.clear();
    // The status's agents already count these claims.
    for (const claim of status.claims) this.putClaim(claim, false);
    this.workItems.clear();
    for (const item of work) this.workItems.set(item.id, item);
  }

  /** The plane's notice of its store's new health; false when what it says (health, problems) is what the mirror holds. */
  setStore(store: StoreHealth): boolean {
    if (!this.plane) return false;
    const held = this.plane.store;
    this.plane = { ...this.plane, store };
    return held?.health !== store.health || held.problems?.join('\n') !== store.problems?.join('\n');
  }

  /** Applies one event the plane recorded after the loaded status; returns false when it was already in. */
  apply(event: FleetEvent, changes: MirrorChanges): boolean {
    if (event.seq <= this.seq) return false;
    this.seq = event.seq;
    if (this.plane) this.plane = { ...this.plane, seq: event.seq };
    if (event.type.startsWith('agent.')) this.applyAgentEvent(event, changes);
    else if (event.type.startsWith('claim.')) this.applyClaimEvent(event, changes);
    else if (event.type === 'control.set') {
      this.control = { state: event.state, ...(event.reason !== undefined && { reason: event.reason }), setBy: event.by ?? 'unknown', setAt: iso(event.at) };
      changes.controlChanged();
    } else if (event.type === 'work.added' || event.type === 'work.transitioned' || event.type === 'work.blockers') {
      const item = applyWorkEvent(this.workItems, event, (agentId) => this.agents.get(agentId)?.callsign ?? agentId);
      if (item) changes.workChanged(item.id);
    } else if (event.type === 'work.removed') {
      for (const itemId of event.itemIds) if (this.workItems.delete(itemId)) changes.workRemoved(itemId);
    } else if (event.type === 'work.guided' || event.type === 'work.guidance') {
      // The packet an agent gets with each pull, the rules' version: nothing the queue's items show.
    } else if (event.type.startsWith('work.')) {
      // Plans, clarification rounds and budgets: rare, and only the plane's list has them whole.
      changes.needsReload();
    }
    return true;
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

  /** Live claims inside `folder` (src/parser/** is inside src), for a collapsed folder's hint. */
  heldInside(scope: string, folder: string): number {
    return this.inside.count(scope, folder);
  }

  private applyAgentEvent(event: FleetEvent, changes: MirrorChanges): void {
    if (event.type === 'agent.rejoined' && !this.agents.has(event.agentId)) return this.revive(event, changes);
    if (event.type === 'agent.pruned') return void this.gone.delete(event.agentId);
    if (event.type === 'agent.joined') {
      const agent: Agent = {
        agentId: event.agentId,
        callsign: event.callsign,
        runtime: event.runtime,
        role: event.role,
        tier: event.tier,
        status: 'active',
        ...(event.worktree !== undefined && { worktree: event.worktree }),
        ...(event.pid !== undefined && { pid: event.pid }),
        joinedAt: iso(event.at),
        lastSeenAt: iso(event.at),
        claimCount: 0,
      };
      this.agents.set(agent.agentId, agent);
      this.reported.set(agent.agentId, 'active');
      this.marks.assign(agent.agentId, agent.callsign);
      return changes.agentChanged(agent.agentId, true);
    }
    const agent = 'agentId' in event && event.agentId !== undefined ? this.agents.get(event.agentId) : undefined;
    if (!agent) return;
    const reported = this.reported.get(agent.agentId) ?? 'active';
    switch (event.type) {
      case 'agent.heartbeat': {
        const status = event.status ?? reported;
        this.reported.set(agent.agentId, status);
        const next: Agent = { ...agent, status, lastSeenAt: iso(Math.max(Date.parse(agent.lastSeenAt), event.at)) };
        if (event.note !== undefined) next.note = event.note;
        if (event.task !== undefined) next.task = event.task;
        this.agents.set(agent.agentId, next);
        // Only a status or task the rows show is news; a heartbeat alone waits for the batch.
        return changes.agentChanged(agent.agentId, next.status !== agent.status || next.task !== agent.task || next.note !== agent.note);
      }
      case 'agent.rejoined': {
        const next: Agent = {
          ...agent,
          status: reported,
          lastSeenAt: iso(event.at),
          ...(event.worktree !== undefined && { worktree: event.worktree }),
          ...(event.pid !== undefined && { pid: event.pid }),
        };
        delete next.hooksSeen; // a new session: its hooks have not run yet
        delete next.waitingForPerson;
        this.agents.set(agent.agentId, next);
        return changes.agentChanged(agent.agentId, true);
      }
      case 'agent.waiting': {
        const { hook, reason, message, tool } = event;
        this.agents.set(agent.agentId, { ...agent, waitingForPerson: { hook, reason, message, ...(tool !== undefined && { tool }), since: iso(event.at) } });
        return changes.agentChanged(agent.agentId, true);
      }
      case 'agent.wait_ended': {
        const next = { ...agent };
        delete next.waitingForPerson;
        this.agents.set(agent.agentId, next);
        return changes.agentChanged(agent.agentId, true);
      }
      case 'agent.unknown':
      case 'agent.stalled':
        this.agents.set(agent.agentId, { ...agent, status: event.type === 'agent.unknown' ? 'unknown' : 'stalled' });
        return changes.agentChanged(agent.agentId, true);
      case 'agent.left':
      case 'agent.expired':
      case 'agent.process_exited':
        this.gone.set(agent.agentId, agent);
        this.agents.delete(agent.agentId);
        this.marks.release(agent.agentId);
        return changes.agentRemoved(agent.agentId);
      default:
        return;
    }
  }

  /** A gone agent re-joined: as this mirror last saw it; one it never saw calls for the whole state again. */
  private revive(event: Extract<FleetEvent, { type: 'agent.rejoined' }>, changes: MirrorChanges): void {
    const known = this.gone.get(event.agentId);
    if (!known) return changes.needsReload();
    this.gone.delete(event.agentId);
    const worktree = event.worktree ?? known.worktree;
    const agent: Agent = {
      agentId: known.agentId,
      callsign: known.callsign,
      runtime: known.runtime,
      role: known.role,
      tier: known.tier,
      joinedAt: known.joinedAt,
      status: this.reported.get(event.agentId) ?? 'active',
      ...(worktree !== undefined && { worktree }),
      // A gone agent's registered process is history: one coming back without a pid has none.
      ...(event.pid !== undefined && { pid: event.pid }),
      ...(known.note !== undefined && { note: known.note }),
      ...(known.task !== undefined && { task: known.task }),
      lastSeenAt: iso(event.at),
      claimCount: 0,
    };
    this.agents.set(agent.agentId, agent);
    this.marks.assign(agent.agentId, agent.callsign);
    changes.agentChanged(agent.agentId, true);
  }

  private applyClaimEvent(event: FleetEvent, changes: MirrorChanges): void {
    if (event.type === 'claim.granted') {
      const holder = this.agents.get(event.agentId);
      const old = this.claims.get(event.claimId);
      if (old) {
        this.dropClaim(old);
        changes.claimReleased(old);
      }
      const claim: Claim = {
        id: event.claimId,
        scope: event.scope,
        pattern: event.pattern,
        mode: event.mode,
        holder: holder?.callsign ?? event.agentId,
        agentId: event.agentId,
        fence: event.fence,
        grantedAt: iso(event.at),
        ...this.lapse(event),
        ...(event.ttlMs !== undefined && { ttlSeconds: event.ttlMs / 1000 }),
        ...(event.reason !== undefined && { reason: event.reason }),
        ...(event.heldFor !== undefined && { heldFor: event.heldFor }),
      };
      this.putClaim(claim);
      changes.claimChanged(claim);
      if (holder) changes.agentChanged(holder.agentId, true);
      return;
    }
    if (event.type === 'claim.renewed') {
      const claim = this.claims.get(event.claimId);
      if (!claim) return;
      const renewed = { ...claim, expiresAt: iso(event.expiresAt) };
      this.claims.set(claim.id, renewed);
      return changes.claimChanged(renewed);
    }
    if (event.type === 'claim.released') {
      const claim = this.claims.get(event.claimId);
      if (!claim) return;
      this.dropClaim(claim);
      changes.claimReleased(claim);
      if (this.agents.has(claim.agentId)) changes.agentChanged(claim.agentId, true);
    }
    // claim.escrowed / unescrowed: a claim in escrow still shows as its sender's.
  }

  private putClaim(claim: Claim, count = true): void {
    this.claims.set(claim.id, claim);
    this.index.add(asRecord(claim));
    this.inside.add(claim.scope, claim.pattern);
    if (count) this.countClaim(claim.agentId, 1);
  }

  private dropClaim(claim: Claim): void {
    this.claims.delete(claim.id);
    this.unindex(claim);
    this.countClaim(claim.agentId, -1);
  }

  private unindex(claim: Claim): void {
    this.index.remove(asRecord(claim));
    this.inside.remove(claim.scope, claim.pattern);
  }

  /** claimCount on the roster: kept by the claims applied, not counted again. */
  private countClaim(agentId: string, by: number): void {
    const agent = this.agents.get(agentId);
    if (agent) this.agents.set(agentId, { ...agent, claimCount: Math.max(0, agent.claimCount + by) });
  }

  /**
   * When a new claim lapses, as the plane's claimLapse says: its TTL; a claim held for a completed
   * item, when the item lands; else while its agent's
   * registered process runs (as the agent's other claims already tell); else 2 × TTL after the
   * agent's last heartbeat.
   */
  private lapse(event: Extract<FleetEvent, { type: 'claim.granted' }>): Pick<Claim, 'expiresAt' | 'expiresWith'> {
    if (event.expiresAt !== undefined) return { expiresAt: iso(event.expiresAt), expiresWith: 'ttl' };
    if (event.heldFor !== undefined) return { expiresAt: null, expiresWith: 'landing' };
    for (const other of this.claims.values()) {
      if (other.agentId === event.agentId && other.expiresWith === 'process') return { expiresAt: null, expiresWith: 'process' };
    }
    const holder = this.agents.get(event.agentId);
    return { expiresAt: iso((holder ? Date.parse(holder.lastSeenAt) : event.at) + 2 * this.agentTtlMs()), expiresWith: 'heartbeats' };
  }

  private agentTtlMs(): number {
    return (this.plane?.agentTtlSeconds ?? DEFAULT_AGENT_TTL_SECONDS) * 1000;
  }

  private viewAgent(agent: Agent): ViewAgent {
    return {
      ...agent,
      mark: this.marks.of(agent.agentId) ?? this.marks.assign(agent.agentId, agent.callsign),
      claimsLapseAt: iso(Date.parse(agent.lastSeenAt) + 2 * this.agentTtlMs()),
    };
  }
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
