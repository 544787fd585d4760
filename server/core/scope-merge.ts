import type { FleetEvent } from '../../contracts/index.js';
import type { Ctx } from './context.js';
import { GlobBudget } from './glob/index.js';
import type { Indexes } from './indexes.js';
import { compileRecordedPattern } from './patterns.js';
import type { ClaimRecord, State } from './state.js';
import { TerritoryIndex } from './territory-index.js';

export interface ScopeRename {
  from: string;
  to: string;
}

type Migrated = Extract<FleetEvent, { type: 'scopes.migrated' }>;

/**
 * Renames scopes (an older plane's git common dirs to portable ids, DESIGN §13) in one event.
 * Two old scopes may become one (two clones of one origin): their claims were never compared, so
 * where they overlap the later grant is parked, to wait in the queue, never dropped and never a
 * double grant. Claims of one old scope were already checked against each other.
 */
export function migrateScopes(ctx: Ctx, renames: readonly ScopeRename[]): void {
  const target = new Map(renames.map((r) => [r.from, r.to]));
  const renamed = (scope: string) => target.get(scope) ?? scope;
  const touched = new Set(renames.map((r) => r.to));
  const kept = new TerritoryIndex();
  const oldScopeOf = new Map<string, string>(); // claims of one old scope are not compared again
  const parked: string[] = [];
  const byAge = [...ctx.state.claims.values()].filter((c) => touched.has(renamed(c.scope))).sort((a, b) => a.grantedAt - b.grantedAt || a.fence - b.fence);
  for (const claim of byAge) {
    const moved = { ...claim, scope: renamed(claim.scope) };
    const collides = (held: ClaimRecord) => held.agentId !== claim.agentId && !(held.mode === 'shared' && claim.mode === 'shared') && oldScopeOf.get(held.id) !== claim.scope;
    // An overlap the budget cannot decide counts as one: waiting is safe, a double grant is not.
    const meets = kept.overlapping(moved.scope, compileRecordedPattern(claim.pattern), GlobBudget.forRequest(), collides);
    if (!meets[Symbol.iterator]().next().done) parked.push(claim.id);
    else {
      kept.add(moved);
      oldScopeOf.set(claim.id, claim.scope);
    }
  }
  ctx.emit({ type: 'scopes.migrated', by: 'plane', renames: [...renames], parked });
}

/** The reducer's part for `scopes.migrated`: rename everywhere, keep each merged scope's highest fence, park. */
export function applyScopesMigrated(state: State, indexes: Indexes, event: Migrated): void {
  const target = new Map(event.renames.map((r) => [r.from, r.to]));
  const renamed = <T extends { scope?: string | undefined }>(record: T) => {
    if (record.scope !== undefined && target.has(record.scope)) record.scope = target.get(record.scope)!;
  };
  const parked = new Set(event.parked);
  for (const claim of [...state.claims.values()]) {
    if (!target.has(claim.scope)) continue;
    indexes.removeClaim(claim);
    renamed(claim);
    if (!parked.has(claim.id)) {
      indexes.addClaim(claim);
      continue;
    }
    state.claims.delete(claim.id);
    const { id, agentId, scope, pattern, mode, ttlMs, reason, grantedAt } = claim;
    state.parkedClaims.set(id, { id, agentId, scope, pattern, mode, ttlMs, reason, grantedAt, parkedAt: event.at });
  }
  for (const { from, to } of event.renames) {
    const fence = state.claimFences.get(from);
    if (fence !== undefined) state.claimFences.set(to, Math.max(fence, state.claimFences.get(to) ?? 0));
    state.claimFences.delete(from);
    const build = state.buildConfigs.get(from);
    state.buildConfigs.delete(from);
    // Merged scopes keep the first build gate configured for the new id.
    if (build && !state.buildConfigs.has(to)) state.buildConfigs.set(to, { ...build, scope: to });
  }
  for (const records of [state.work.values(), state.buildRuns.values(), state.violations.values(), state.parkedClaims.values()]) {
    for (const record of records) renamed(record);
  }
}
