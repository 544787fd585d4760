import type { FleetChanges, FleetViewState, ViewAgent, ViewClaim } from '../../contracts/lsp.js';
import type { WorkItem } from '../../contracts/work.js';

/**
 * The state the views show, kept by applying the language server's changes to maps by id; the
 * `FleetViewState` arrays are built only when someone reads them after a change.
 */
export class FleetState {
  private readonly agents = new Map<string, ViewAgent>();
  private readonly claims = new Map<string, ViewClaim>();
  private readonly work = new Map<string, WorkItem>();
  private base: FleetViewState;
  private snapshot: FleetViewState | undefined;

  constructor(whole: FleetViewState) {
    this.base = whole;
    this.replace(whole);
  }

  get view(): FleetViewState {
    this.snapshot ??= { ...this.base, agents: [...this.agents.values()], claims: [...this.claims.values()], work: [...this.work.values()] };
    return this.snapshot;
  }

  get connection(): FleetViewState['connection'] {
    return this.base.connection;
  }

  agent(agentId: string): ViewAgent | undefined {
    return this.agents.get(agentId);
  }

  claim(claimId: string): ViewClaim | undefined {
    return this.claims.get(claimId);
  }

  workItem(itemId: string): WorkItem | undefined {
    return this.work.get(itemId);
  }

  replace(whole: FleetViewState): void {
    this.base = whole;
    this.agents.clear();
    this.claims.clear();
    this.work.clear();
    for (const agent of whole.agents) this.agents.set(agent.agentId, agent);
    for (const claim of whole.claims) this.claims.set(claim.id, claim);
    for (const item of whole.work) this.work.set(item.id, item);
    this.snapshot = whole;
  }

  apply(changes: FleetChanges): void {
    for (const agent of changes.agents) this.agents.set(agent.agentId, agent);
    for (const agentId of changes.removedAgents) this.agents.delete(agentId);
    for (const claim of changes.claims) this.claims.set(claim.id, claim);
    for (const claimId of changes.releasedClaims) this.claims.delete(claimId);
    for (const item of changes.work) this.work.set(item.id, item);
    for (const itemId of changes.removedWork) this.work.delete(itemId);
    if (changes.control) this.base = { ...this.base, control: changes.control };
    if (changes.store) this.base = { ...this.base, store: changes.store };
    this.snapshot = undefined;
  }
}
