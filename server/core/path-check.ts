import type { Result } from '../../contracts/index.js';
import type { Caller, Ctx } from './context.js';
import { claimExpiresAt } from './liveness.js';
import { checkedPath } from './patterns.js';
import { GlobBudget } from './glob/index.js';
import { assertFence, ownedClaims, tooMuchGlobWork } from './territory.js';
import { callsignOf, iso } from './views.js';

export type PathVerdict = Result<'fleet_check_path'>['results'][number];

/**
 * The one check every gate calls (editor, hooks, CLI). An agent may write a path it holds a live
 * claim on, unless another agent holds it exclusively; a person may write anything no agent holds
 * exclusively. An expired claim is already gone from the index, so it counts for nothing.
 */
export function checkPaths(ctx: Ctx, caller: Caller, scope: string, paths: string[], fence?: number): PathVerdict[] {
  const agentId = caller.kind === 'agent' ? caller.agentId : undefined;
  if (agentId !== undefined && fence !== undefined) {
    assertFence(ownedClaims(ctx, agentId).filter((c) => c.scope === scope), fence);
  }
  const budget = GlobBudget.forRequest();
  return paths.map((input) => {
    const path = checkedPath(input);
    let mine = false;
    let othersExclusive = false;
    const holders: PathVerdict['holders'] = [];
    for (const { claim, decided, grandfathered } of ctx.indexes.territory.coveringWithin(scope, path, budget)) {
      if (!decided && !grandfathered) throw tooMuchGlobWork(`checking ${paths.length} paths`, 'check fewer paths per call');
      // A claim travelling with a handoff lets nobody write, its sender included, until accepted.
      // One the budget could not decide covers the path for everyone else, and for its holder not.
      // A claim held for a completed item awaiting integration lets nobody write, its builder included.
      const item = claim.heldFor !== undefined;
      if (claim.agentId === agentId && claim.escrow === undefined && !item) mine ||= decided;
      else if ((claim.agentId !== agentId || item) && claim.mode === 'exclusive') othersExclusive = true;
      holders.push({
        callsign: callsignOf(ctx.state, claim.agentId),
        mode: claim.mode,
        pattern: claim.pattern,
        expiresAt: iso(claimExpiresAt(claim, ctx.state, ctx.config)),
        ...(item && { heldFor: claim.heldFor }),
      });
    }
    const allowed = agentId === undefined ? !othersExclusive : mine && !othersExclusive;
    return { path, allowed, holders };
  });
}
