import type { Claim } from '../../contracts/index.js';

/**
 * What the events applied since the last flush changed, by id: the language server turns it into
 * one `fleet/didChangeFleet` notification carrying only those records, and recomputes only the
 * files the changed claims cover. `urgent` says whether something a person sees at once changed
 * (a claim, the switch, a status): a heartbeat alone may wait for the next batch.
 */
export class MirrorChanges {
  readonly agents = new Set<string>();
  readonly removedAgents = new Set<string>();
  readonly claims = new Set<string>();
  readonly releasedClaims = new Set<string>();
  readonly work = new Set<string>();
  readonly removedWork = new Set<string>();
  /** Claims whose files' ownership may differ: granted, renewed and released ones (before and after). */
  readonly fileClaims: Claim[] = [];
  control = false;
  /** The store's health changed (a plane notice, not an event). */
  store = false;
  urgent = false;
  /** An event named something this copy never held (an agent that left before it loaded): only the whole state tells. */
  reload = false;

  get empty(): boolean {
    return this.agents.size + this.removedAgents.size + this.claims.size + this.releasedClaims.size + this.work.size + this.removedWork.size === 0 && !this.control && !this.store;
  }

  agentChanged(agentId: string, urgent: boolean): void {
    this.agents.add(agentId);
    this.removedAgents.delete(agentId);
    this.urgent ||= urgent;
  }

  agentRemoved(agentId: string): void {
    this.agents.delete(agentId);
    this.removedAgents.add(agentId);
    this.urgent = true;
  }

  claimChanged(claim: Claim): void {
    this.claims.add(claim.id);
    this.releasedClaims.delete(claim.id);
    this.fileClaims.push(claim);
    this.urgent = true;
  }

  claimReleased(claim: Claim): void {
    this.claims.delete(claim.id);
    this.releasedClaims.add(claim.id);
    this.fileClaims.push(claim);
    this.urgent = true;
  }

  workChanged(itemId: string): void {
    this.work.add(itemId);
    this.removedWork.delete(itemId);
    this.urgent = true;
  }

  workRemoved(itemId: string): void {
    this.work.delete(itemId);
    this.removedWork.add(itemId);
    this.urgent = true;
  }

  needsReload(): void {
    this.reload = true;
    this.urgent = true;
  }

  controlChanged(): void {
    this.control = true;
    this.urgent = true;
  }

  storeChanged(): void {
    this.store = true;
    this.urgent = true;
  }
}
