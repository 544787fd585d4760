import type { ClaimRecord, State } from './state.js';
import { TerritoryIndex } from './territory-index.js';

/** Everything derivable from `State` that lookups need to be fast. Rebuilt on load, never stored. */
export class Indexes {
  /** callsign → agentId, for agents that have neither left nor expired. */
  readonly liveCallsigns = new Map<string, string>();
  readonly claimsByAgent = new Map<string, Set<string>>();
  /** work item id → the claims held for it until it lands (work-claims.ts). */
  readonly claimsHeldFor = new Map<string, Set<string>>();
  readonly territory = new TerritoryIndex();

  static build(state: State): Indexes {
    const indexes = new Indexes();
    for (const agent of state.agents.values()) {
      if (!agent.gone) indexes.liveCallsigns.set(agent.callsign, agent.agentId);
    }
    for (const claim of state.claims.values()) indexes.addClaim(claim);
    return indexes;
  }

  addClaim(claim: ClaimRecord): void {
    let owned = this.claimsByAgent.get(claim.agentId);
    if (!owned) {
      owned = new Set();
      this.claimsByAgent.set(claim.agentId, owned);
    }
    owned.add(claim.id);
    if (claim.heldFor !== undefined) {
      const held = this.claimsHeldFor.get(claim.heldFor) ?? new Set();
      this.claimsHeldFor.set(claim.heldFor, held.add(claim.id));
    }
    this.territory.add(claim);
  }

  removeClaim(claim: ClaimRecord): void {
    const owned = this.claimsByAgent.get(claim.agentId);
    owned?.delete(claim.id);
    if (owned && owned.size === 0) this.claimsByAgent.delete(claim.agentId);
    if (claim.heldFor !== undefined) {
      const held = this.claimsHeldFor.get(claim.heldFor);
      held?.delete(claim.id);
      if (held && held.size === 0) this.claimsHeldFor.delete(claim.heldFor);
    }
    this.territory.remove(claim);
  }

  claimIdsOf(agentId: string): string[] {
    return [...(this.claimsByAgent.get(agentId) ?? [])];
  }

  claimIdsHeldFor(itemId: string): string[] {
    return [...(this.claimsHeldFor.get(itemId) ?? [])];
  }
}
