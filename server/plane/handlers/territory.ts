import { claim } from '../../core/claim.js';
import { checkPaths } from '../../core/path-check.js';
import { forceRelease, release, renew, transfer } from '../../core/territory.js';
import type { ClaimRecord } from '../../core/state.js';
import { page } from '../rpc/pager.js';
import type { HandlerTable } from './handler.js';
import { claimList } from './paged-lists.js';

export const territoryHandlers = {
  fleet_claim_path: (params, session, { core, scopes }) => {
    const scope = scopes.forCall(params);
    const patterns = params.patterns.map((p) => scopes.markDirectory(scope, scopes.toRelative(scope, p)));
    return core.run(session.caller, (ctx) => claim(ctx, session.caller, { ...params, scope: scope.id, patterns }, core.queue, session.closed));
  },

  fleet_claim_renew: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ renewed: renew(ctx, session.caller, params).map(({ id, expiresAt }) => ({ id, expiresAt })) })),

  fleet_release_path: (params, session, { core, scopes }) => {
    const scope = params.patterns?.length ? scopes.forCall(params) : undefined;
    const patterns = scope && params.patterns?.map((p) => scopes.markDirectory(scope, scopes.toRelative(scope, p)));
    return core.run(session.caller, (ctx) => ({
      released: release(ctx, session.caller, { ...params, ...(scope && { scope: scope.id, patterns }) }),
    }));
  },

  fleet_check_path: (params, session, { core, scopes }) => {
    const scope = scopes.forCall(params);
    const paths = params.paths.map((p) => scopes.toRelative(scope, p));
    return core.run(session.caller, (ctx) => {
      const results = checkPaths(ctx, session.caller, scope.id, paths, params.fence);
      return { allowed: results.every((r) => r.allowed), results };
    });
  },

  fleet_claim_transfer: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ claims: transfer(ctx, session.caller, params.claimIds, params.to) })),

  fleet_claim_force_release: (params, session, { core }) =>
    core.run(session.caller, (ctx) => ({ released: forceRelease(ctx, session.caller, params.claimIds, params.reason) })),

  fleet_claims: (params, session, { core, scopes }) => {
    const scopeId = params.root !== undefined || params.scope !== undefined ? scopes.forCall(params).id : undefined;
    return core.run(session.caller, (ctx) => {
      const holderId = params.holder !== undefined ? ctx.indexes.liveCallsigns.get(params.holder) : undefined;
      const keep = (c: ClaimRecord) => (scopeId === undefined || c.scope === scopeId) && (params.holder === undefined || c.agentId === holderId);
      return page({ claims: claimList(ctx, { filter: JSON.stringify([scopeId, holderId ?? params.holder]), keep }) }, params, ctx.state);
    });
  },
} satisfies Partial<HandlerTable>;
