// An independent model of the work queue, rebuilt from the plane's event log, that answers "could
// this agent have pulled something at this point of the log?". It shares nothing with the plane's
// queue code: only the glob overlap test (itself cross-checked by brute force in the glob tests)
// and the territory referee (grant-checker.ts) for the live claims.
import type { FleetEvent, Role, Tier, WorkKind } from '../../contracts/index.js';
import { GrantChecker } from './grant-checker.js';
import { PatternOverlaps } from './pattern-overlaps.js';

interface ModelItem {
  id: string;
  kind: WorkKind;
  parent?: string;
  dependsOn: string[];
  paths: string[];
  scope?: string;
  role?: Role;
  tier?: Tier;
  status: string;
  blockedBy: string[];
}

interface ModelAgent {
  callsign: string;
  role: Role;
  tier: Tier;
}

const builderRoles: readonly Role[] = ['worker', 'builder'];

export class QueueModel {
  readonly items = new Map<string, ModelItem>();
  readonly agents = new Map<string, ModelAgent>();
  readonly checker: GrantChecker;
  private readonly containers = new Set<string>();
  private readonly patterns = new PatternOverlaps();
  seq = 0;

  constructor(agentTtlMs: number) {
    this.checker = new GrantChecker({ agentTtlMs });
  }

  apply(event: FleetEvent): void {
    this.checker.apply(event);
    this.seq = event.seq;
    switch (event.type) {
      case 'agent.joined':
        this.agents.set(event.agentId, { callsign: event.callsign, role: event.role, tier: event.tier });
        return;
      case 'work.added':
        this.items.set(event.itemId, {
          id: event.itemId,
          kind: event.kind,
          ...(event.parent !== undefined && { parent: event.parent }),
          dependsOn: event.dependsOn,
          paths: event.paths,
          ...(event.scope !== undefined && { scope: event.scope }),
          ...(event.role !== undefined && { role: event.role }),
          ...(event.tier !== undefined && { tier: event.tier }),
          status: 'ready',
          blockedBy: [],
        });
        if (event.parent !== undefined) this.containers.add(event.parent);
        return;
      case 'work.transitioned': {
        const item = this.items.get(event.itemId);
        if (item) item.status = event.status;
        return;
      }
      case 'work.blockers': {
        const item = this.items.get(event.itemId);
        if (item) item.blockedBy = event.blockedBy;
        return;
      }
      default:
        return;
    }
  }

  /**
   * An item the agent could pull in the current state, per issue 4: ready (or back for rework), a
   * leaf, not held by an open request, every dependency done, its tier and role the agent's (an
   * edge agent takes unmarked items only from stories up), and
   * none of its paths overlapping a live claim of another agent. Undefined when there is none.
   */
  pullableFor(agentId: string): string | undefined {
    const agent = this.agents.get(agentId);
    if (!agent || !builderRoles.includes(agent.role)) return undefined;
    for (const item of this.items.values()) {
      if (item.status !== 'ready' && item.status !== 'rework') continue;
      if (this.containers.has(item.id) || item.blockedBy.length > 0) continue;
      if (!item.dependsOn.every((d) => this.items.get(d)?.status === 'done')) continue;
      if (item.tier !== undefined && item.tier !== agent.tier) continue;
      // DESIGN §13: an edge agent pulls unmarked work only from stories up.
      if (item.tier === undefined && agent.tier === 'edge' && item.kind === 'task') continue;
      if (item.role !== undefined && item.role !== agent.role && !(builderRoles.includes(item.role) && builderRoles.includes(agent.role))) continue;
      if (this.pathsFree(item, agentId)) return item.id;
    }
    return undefined;
  }

  private pathsFree(item: ModelItem, agentId: string): boolean {
    if (item.paths.length === 0 || item.scope === undefined) return true;
    for (const claim of this.checker.live.values()) {
      if (claim.agentId === agentId || claim.scope !== item.scope) continue;
      for (const path of item.paths) if (this.patterns.overlaps(path, claim.pattern)) return false;
    }
    return true;
  }

}

/** A pull that returned no item, bracketed by what its agent had seen of the log. */
export interface EmptyPull {
  agentId: string;
  callsign: string;
  /** Every event up to this seq was applied before the plane judged the pull. */
  lowSeq: number;
  /** The plane judged the pull before any event after this seq. */
  highSeq: number;
  atMs: number;
}

export interface IdleViolation {
  pull: EmptyPull;
  /** At every seq of the bracket this item (at highSeq) was pullable for the agent. */
  pullable: string;
}

/**
 * Replays the log and checks every empty pull: somewhere in its bracket [lowSeq, highSeq] the
 * agent must have had nothing to pull. If some item was pullable at every point of the bracket,
 * the plane answered "nothing" while ready work it could take existed: an idle violation.
 */
export function checkEmptyPulls(events: readonly FleetEvent[], pulls: readonly EmptyPull[], agentTtlMs: number): { violations: IdleViolation[]; checkedSeqs: number } {
  const model = new QueueModel(agentTtlMs);
  const pending = [...pulls].sort((a, b) => a.lowSeq - b.lowSeq);
  const active: EmptyPull[] = [];
  const violations: IdleViolation[] = [];
  let next = 0;
  let checkedSeqs = 0;
  const step = (seq: number) => {
    while (next < pending.length && pending[next]!.lowSeq <= seq) active.push(pending[next++]!);
    if (active.length === 0) return;
    checkedSeqs++;
    const cache = new Map<string, string | undefined>();
    for (let i = active.length - 1; i >= 0; i--) {
      const pull = active[i]!;
      if (!cache.has(pull.agentId)) cache.set(pull.agentId, model.pullableFor(pull.agentId));
      const pullable = cache.get(pull.agentId);
      if (pullable === undefined) {
        active.splice(i, 1); // an instant with nothing to pull: the empty answer is justified
      } else if (seq >= pull.highSeq) {
        violations.push({ pull, pullable });
        active.splice(i, 1);
      }
    }
  };
  step(0);
  for (const event of events) {
    model.apply(event);
    step(event.seq);
  }
  for (const pull of active) violations.push({ pull, pullable: '(bracket ends after the log)' });
  return { violations, checkedSeqs };
}
