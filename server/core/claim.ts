import { FleetError } from '../../contracts/index.js';
import { requireAgent } from './authority.js';
import type { ClaimOutcome, ClaimQueue } from './claim-queue.js';
import type { Caller, Ctx } from './context.js';
import { refusesNewClaims } from './control.js';
import { findConflicts, grant, prepareClaim, previousGrant, type ClaimRequest } from './territory.js';

/**
 * A claim request, all or nothing: a retry returns the earlier grant; pause and stop refuse it;
 * a conflict refuses it, or queues it when the caller is willing to wait (until `abandoned`, if
 * the caller leaves first).
 */
export function claim(ctx: Ctx, caller: Caller, req: ClaimRequest, queue: ClaimQueue, abandoned?: AbortSignal): ClaimOutcome | Promise<ClaimOutcome> {
  const agent = requireAgent(ctx.state, caller);
  if (agent.role === 'verifier') throw new FleetError('FORBIDDEN', 'verifiers read and test, they do not write: a verifier cannot claim territory');
  const request = prepareClaim(agent.agentId, req);
  const earlier = previousGrant(ctx, request);
  if (earlier) return { granted: true, claims: earlier, conflicts: [] };
  if (refusesNewClaims(ctx.state.control.state)) return { granted: false, refusedBy: 'control', claims: [], conflicts: [] };
  const conflicts = [...findConflicts(ctx, request), ...queue.conflictsWithQueued(ctx, request)];
  if (conflicts.length === 0) return { granted: true, claims: grant(ctx, request), conflicts: [] };
  if (!req.waitSeconds) return { granted: false, refusedBy: 'conflict', claims: [], conflicts };
  return new Promise((resolve) => queue.enqueue(ctx, request, req.waitSeconds! * 1000, conflicts, resolve, abandoned));
}
