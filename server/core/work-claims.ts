import type { Ctx } from './context.js';
import type { WorkRecord } from './orchestration-records.js';
import { releaseClaim } from './territory.js';

/** Releases the claims a pull made for the item (they carry its id in their reason). */
export function releaseItemClaims(ctx: Ctx, item: WorkRecord, agentId: string, by: string): void {
  const prefix = `work ${item.id}:`;
  for (const claimId of ctx.indexes.claimIdsOf(agentId)) {
    if (ctx.state.claims.get(claimId)?.reason?.startsWith(prefix)) releaseClaim(ctx, claimId, 'released', by);
  }
}

/**
 * An item taken from its builder mid-build (a decision, an escalation) frees the builder's
 * territory so the item is not stranded; returns the transition field that unassigns it.
 */
export function freeBuilder(ctx: Ctx, item: WorkRecord, by: string): { assignee?: null } {
  const building = item.status === 'in_progress' || (item.status === 'escalated' && item.escalation?.waitedIn === 'in_progress');
  if (!building || item.assignee === undefined) return {};
  releaseItemClaims(ctx, item, item.assignee, by);
  return { assignee: null };
}
