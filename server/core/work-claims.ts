import type { Ctx } from './context.js';
import { GlobBudget } from './glob/index.js';
import type { WorkRecord } from './orchestration-records.js';
import { compileRecordedPattern } from './patterns.js';
import { grant, releaseClaim } from './territory.js';
import { endWriteSetsNoLongerAwaiting } from './write-set-awaiting-landing.js';

/** Releases the claims a pull made for the item (they carry its id in their reason). */
export function releaseItemClaims(ctx: Ctx, item: WorkRecord, agentId: string, by: string): void {
  for (const claimId of itemClaimIds(ctx, item, agentId)) releaseClaim(ctx, claimId, 'released', by);
}

function itemClaimIds(ctx: Ctx, item: WorkRecord, agentId: string): string[] {
  const prefix = `work ${item.id}:`;
  return ctx.indexes.claimIdsOf(agentId).filter((id) => {
    const claim = ctx.state.claims.get(id);
    return claim?.heldFor === undefined && claim?.reason?.startsWith(prefix) === true;
  });
}

/** Glob syntax in a changed file's name: that path cannot be claimed literally, so its claim stays whole. */
const GLOB_SYNTAX = /[*?[\]{}!\\]/;

/**
 * Work completed on a branch of its own has not landed yet: the item's claims stay held for the
 * item (DESIGN §14, §16), narrowed to its write-set (the paths it changed): a claim keeps each
 * changed path it covers, and one that covers none ends. Without a write-set (too many paths to
 * list) or with a path that is no literal pattern, a claim is held whole.
 */
export function holdItemClaims(ctx: Ctx, item: WorkRecord, agentId: string, writeSet: readonly string[] | undefined, by: string): void {
  const kept = new Set<string>();
  for (const claimId of itemClaimIds(ctx, item, agentId)) {
    const claim = ctx.state.claims.get(claimId)!;
    const compiled = ctx.indexes.territory.compiledOf(claim);
    const covered = writeSet?.filter((path) => compiled.matches(path));
    const patterns = covered === undefined || covered.some((p) => GLOB_SYNTAX.test(p)) ? [claim.pattern] : covered;
    releaseClaim(ctx, claimId, 'released', by, patterns.length === 0 ? `${item.id} changed nothing under it` : `held for ${item.id} until it lands`);
    const fresh = patterns.filter((p) => !kept.has(p));
    for (const p of fresh) kept.add(p);
    if (fresh.length === 0 || item.scope === undefined) continue;
    // Granted without a conflict check: the builder held these exclusively an instant ago.
    grant(ctx, { agentId, scope: claim.scope, patterns: fresh.map(compileRecordedPattern), mode: claim.mode, budget: GlobBudget.forRequest(), ...(claim.reason !== undefined && { reason: claim.reason }), heldFor: item.id });
  }
}

/** Ends the claims held for an item: it landed, went back to a builder, was rolled back or removed. */
export function releaseHeldClaims(ctx: Ctx, itemId: string, by: string, note: string): void {
  for (const claimId of ctx.indexes.claimIdsHeldFor(itemId)) releaseClaim(ctx, claimId, 'landed', by, note);
  // A gone builder's write-set kept for the item alone ends with it.
  endWriteSetsNoLongerAwaiting(ctx);
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
