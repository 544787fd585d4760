import { FleetError, type ClaimMode, type ClaimReleaseReason, type ParsedParams, type ResultBody } from '../../contracts/index.js';
import { actorName, isOperator, requireAgent } from './authority.js';
import type { Caller, Ctx } from './context.js';
import { GlobBudget, MAX_REQUEST_COMPLEXITY, REQUEST_GLOB_BUDGET, type CompiledPattern } from './glob/index.js';
import { claimExpiresAt } from './liveness.js';
import { canonicalPattern, compileClaimPattern } from './patterns.js';
import { requestKey, type ClaimRecord } from './state.js';
import { callsignOf, iso } from './views.js';

export interface ClaimRequest {
  scope: string;
  patterns: string[];
  mode?: ClaimMode;
  ttlSeconds?: number;
  waitSeconds?: number;
  reason?: string;
  requestId?: string;
}

/** A validated claim request: what is checked for conflicts and, if free, granted. */
export interface PreparedClaim {
  agentId: string;
  scope: string;
  patterns: CompiledPattern[];
  mode: ClaimMode;
  ttlMs?: number;
  reason?: string;
  requestId?: string;
  /** Set when a transfer re-grants another agent's claim. */
  transferredFrom?: string;
  /** Set when the claim is held for a completed work item until it lands (work-claims.ts). */
  heldFor?: string;
  /** The work item whose held claims this request takes over (the item pulled again for rework). */
  reclaims?: string;
  /** The glob work this request may still do (DESIGN §12). */
  budget: GlobBudget;
}

export type GrantedClaim = ResultBody<'fleet_claim_path'>['claims'][number];
export type Conflict = ResultBody<'fleet_claim_path'>['conflicts'][number];

/**
 * Compiles the request's patterns, once: the compiled forms travel with it to the territory index.
 * New patterns are held to the limits; a work item's recorded paths pass `compile` to be grandfathered.
 */
export function prepareClaim(agentId: string, req: ClaimRequest, compile: (pattern: string) => CompiledPattern = compileClaimPattern): PreparedClaim {
  const seen = new Map<string, CompiledPattern>();
  let weight = 0;
  for (const input of req.patterns) {
    const compiled = compile(input);
    seen.set(compiled.source, compiled);
    weight += compiled.complexity;
    // Recorded patterns (a work item's, compiled by the caller's `compile`) are never refused.
    if (compile === compileClaimPattern && weight > MAX_REQUEST_COMPLEXITY) {
      throw new FleetError(
        'PATTERN_TOO_COMPLEX',
        `the patterns of this request together weigh more than one request may compile and compare (complexity ${MAX_REQUEST_COMPLEXITY}, about eight patterns full of wildcards and brace groups): claim them over several requests, or claim their directories instead (e.g. src/api/**)`,
        { limit: MAX_REQUEST_COMPLEXITY },
      );
    }
  }
  return {
    agentId,
    scope: req.scope,
    patterns: [...seen.values()],
    mode: req.mode ?? 'exclusive',
    budget: GlobBudget.forRequest(),
    ...(req.ttlSeconds !== undefined && { ttlMs: req.ttlSeconds * 1000 }),
    ...(req.reason !== undefined && { reason: req.reason }),
    ...(req.requestId !== undefined && { requestId: req.requestId }),
  };
}

/**
 * The grant a retried request already received, so retries never grant twice. A request id names
 * one request: reusing it for other patterns, another mode or another repository is refused, never
 * answered with the first request's grant.
 */
export function previousGrant(ctx: Ctx, request: PreparedClaim): GrantedClaim[] | undefined {
  if (request.requestId === undefined) return undefined;
  const record = ctx.state.requests.get(requestKey(request.agentId, request.requestId));
  if (!record) return undefined;
  // A retry replays the whole grant, all or nothing; a claim of it that ended since shows its
  // grant time as expiry, and its fence is stale. Only once every claim of it has ended is a
  // retry a new intent, decided afresh.
  const claims = record.claims.map((c) => ({ c, live: ctx.state.claims.get(c.id) }));
  const sample = claims.find(({ live }) => live !== undefined)?.live;
  const mismatch = !sameSet(record.claims.map((c) => c.pattern), request.patterns.map((p) => p.source))
    ? `other patterns (${record.claims.map((c) => c.pattern).join(', ')})`
    : sample !== undefined && sample.scope !== request.scope
      ? 'another repository'
      : sample !== undefined && sample.mode !== request.mode
        ? `${sample.mode} claims`
        : undefined;
  if (mismatch !== undefined) {
    throw new FleetError('INVALID_PARAMS', `requestId ${request.requestId} was used for ${mismatch}: use a new requestId for a new request`, { requestId: request.requestId });
  }
  if (sample === undefined) return undefined;
  return claims.map(({ c, live }) => ({ ...c, expiresAt: iso(live ? claimExpiresAt(live, ctx.state, ctx.config) : record.at) }));
}

const compatible = (a: ClaimMode, b: ClaimMode): boolean => a === 'shared' && b === 'shared';

const sameSet = (a: readonly string[], b: readonly string[]): boolean => {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((item) => right.has(item));
};

/**
 * Every live claim that some requested pattern collides with: another agent's, or one of the
 * requester's own that travels with a pending handoff (it is no longer the requester's to use).
 * Overlap with a grandfathered pattern that the budget cannot decide counts as a collision (never
 * a double grant); running out of budget against any other claim refuses the request.
 */
export function findConflicts(ctx: Ctx, request: PreparedClaim, budget = request.budget): Conflict[] {
  const conflicts: Conflict[] = [];
  // Claims the requester may overlap anyway are not compared at all.
  const matters = (held: ClaimRecord): boolean =>
    held.escrow !== undefined || (held.heldFor !== undefined ? held.heldFor !== request.reclaims : held.agentId !== request.agentId && !compatible(held.mode, request.mode));
  for (const pattern of request.patterns) {
    for (const { claim: held, decided, grandfathered } of ctx.indexes.territory.overlapping(request.scope, pattern, budget, matters)) {
      if (!decided && !grandfathered) throw tooMuchGlobWork(`claiming "${pattern.source}"`, CLAIM_INSTEAD);
      conflicts.push({
        pattern: pattern.source,
        holder: callsignOf(ctx.state, held.agentId),
        heldPattern: held.pattern,
        mode: held.mode,
        expiresAt: iso(claimExpiresAt(held, ctx.state, ctx.config)),
      });
    }
  }
  return conflicts;
}

/** Grants every pattern of a conflict-free request; an identical claim already held is reused. */
export function grant(ctx: Ctx, request: PreparedClaim): GrantedClaim[] {
  const by = callsignOf(ctx.state, request.agentId);
  return request.patterns.map((pattern) => {
    // Reusing an identical claim is only for requests without an id: an id's grant is recorded whole.
    const existing = request.requestId === undefined ? heldIdentical(ctx, request, pattern) : undefined;
    if (existing) {
      if (request.ttlMs !== undefined) renewOne(ctx, existing, request.ttlMs, by);
      return granted(ctx, existing);
    }
    const fence = (ctx.state.claimFences.get(request.scope) ?? 0) + 1;
    const claimId = ctx.ids.id('cl');
    const expiresAt = request.ttlMs !== undefined ? ctx.now + request.ttlMs : undefined;
    const record = (): unknown => ctx.emit({
      type: 'claim.granted',
      by,
      claimId,
      agentId: request.agentId,
      scope: request.scope,
      pattern: pattern.source,
      mode: request.mode,
      fence,
      ttlMs: request.ttlMs,
      expiresAt,
      reason: request.reason,
      requestId: request.requestId,
      transferredFrom: request.transferredFrom,
      heldFor: request.heldFor,
    });
    ctx.indexes.territory.recordingGrantOf(pattern, record);
    if (expiresAt !== undefined) ctx.schedule(expiresAt, { kind: 'claim', claimId });
    return granted(ctx, ctx.state.claims.get(claimId)!);
  });
}

// Looked up in the territory index, not by a scan of the agent's claims: with a hundred claims per
// agent, that scan made loading them quadratic.
function heldIdentical(ctx: Ctx, request: PreparedClaim, pattern: CompiledPattern): ClaimRecord | undefined {
  for (const claim of ctx.indexes.territory.samePattern(request.scope, pattern)) {
    if (claim.agentId === request.agentId && claim.escrow === undefined && claim.heldFor === request.heldFor && claim.mode === request.mode) return claim;
  }
  return undefined;
}

function granted(ctx: Ctx, claim: ClaimRecord): GrantedClaim {
  return { id: claim.id, pattern: claim.pattern, fence: claim.fence, expiresAt: iso(claimExpiresAt(claim, ctx.state, ctx.config)) };
}

function renewOne(ctx: Ctx, claim: ClaimRecord, ttlMs: number, by: string): void {
  const expiresAt = ctx.now + ttlMs;
  ctx.emit({ type: 'claim.renewed', by, claimId: claim.id, expiresAt });
  ctx.schedule(expiresAt, { kind: 'claim', claimId: claim.id });
}

/**
 * Refuses an operation that presents a fence none of `claims` carries. Fences count per scope, so
 * callers pass only the claims the operation is about (one scope's, or the named ids).
 */
export function assertFence(claims: ClaimRecord[], fence: number | undefined): void {
  if (fence === undefined) return;
  if (!claims.some((c) => c.fence === fence)) {
    throw new FleetError('STALE_FENCE', `fence ${fence} is not current: the claim it was issued with has been released or re-granted; check and claim again`, { fence });
  }
}

export function ownedClaims(ctx: Ctx, agentId: string): ClaimRecord[] {
  return [...(ctx.indexes.claimsByAgent.get(agentId) ?? [])].map((id) => ctx.state.claims.get(id)!);
}

export type RenewRequest = ParsedParams<'fleet_claim_renew'>;

export function renew(ctx: Ctx, caller: Caller, req: RenewRequest): GrantedClaim[] {
  const agent = requireAgent(ctx.state, caller);
  const owned = ownedClaims(ctx, agent.agentId);
  const targets = req.claimIds === undefined ? owned : req.claimIds.map((id) => ownClaim(ctx, agent.agentId, id, false));
  assertFence(targets, req.fence);
  return targets.map((claim) => {
    const ttlMs = req.ttlSeconds !== undefined ? req.ttlSeconds * 1000 : claim.ttlMs;
    if (ttlMs !== undefined) renewOne(ctx, claim, ttlMs, agent.callsign);
    return granted(ctx, claim);
  });
}

/** A claim of this agent (or, for the operator, anyone's); unknown ids are NOT_FOUND. */
function ownClaim(ctx: Ctx, agentId: string | undefined, claimId: string, anyHolder: boolean): ClaimRecord {
  const claim = ctx.state.claims.get(claimId);
  if (!claim) throw new FleetError('NOT_FOUND', `no live claim ${claimId}: it was released or has expired`, { claimId });
  if (!anyHolder && claim.agentId !== agentId) {
    throw new FleetError('NOT_HOLDER', `claim ${claimId} is held by ${callsignOf(ctx.state, claim.agentId)}, not you`, { claimId });
  }
  if (!anyHolder && claim.heldFor !== undefined) throw heldForItem(claim);
  return claim;
}

export type ReleaseRequest = Omit<ParsedParams<'fleet_release_path'>, 'root'> & { scope?: string };

export function release(ctx: Ctx, caller: Caller, req: ReleaseRequest): string[] {
  const agent = requireAgent(ctx.state, caller);
  const owned = ownedClaims(ctx, agent.agentId);
  const targets = new Map<string, ClaimRecord>();
  for (const id of req.claimIds ?? []) {
    // Releasing twice is a harmless retry; releasing someone else's claim is not.
    if (ctx.state.claims.has(id)) targets.set(id, ownClaim(ctx, agent.agentId, id, false));
  }
  if (req.patterns && req.patterns.length > 0) {
    const wanted = new Set(req.patterns.map(canonicalPattern));
    for (const claim of owned) {
      if (wanted.has(claim.pattern) && claim.heldFor === undefined && (req.scope === undefined || claim.scope === req.scope)) targets.set(claim.id, claim);
    }
  }
  assertFence(targets.size > 0 ? [...targets.values()] : owned.filter((c) => req.scope === undefined || c.scope === req.scope), req.fence);
  for (const claim of targets.values()) releaseClaim(ctx, claim.id, 'released', agent.callsign);
  return [...targets.keys()];
}

export function releaseClaim(ctx: Ctx, claimId: string, reason: ClaimReleaseReason, by: string, note?: string): void {
  const claim = ctx.state.claims.get(claimId);
  ctx.emit({
    type: 'claim.released',
    by,
    claimId,
    reason,
    ...(note !== undefined && { note }),
    ...(claim && { agentId: claim.agentId, scope: claim.scope, pattern: claim.pattern }),
  });
}

/**
 * Releases an agent's claims, except those travelling with a pending handoff (the handoff settles
 * them) and those held for a completed work item (they belong to the item until it lands).
 */
export function releaseAllOf(ctx: Ctx, agentId: string, reason: ClaimReleaseReason, by: string): string[] {
  const ids = ctx.indexes.claimIdsOf(agentId).filter((id) => {
    const claim = ctx.state.claims.get(id);
    return claim?.escrow === undefined && claim?.heldFor === undefined;
  });
  for (const id of ids) releaseClaim(ctx, id, reason, by);
  return ids;
}

export function transfer(ctx: Ctx, caller: Caller, claimIds: string[], toCallsign: string): GrantedClaim[] {
  const operator = isOperator(ctx.state, caller);
  const from = operator ? undefined : requireAgent(ctx.state, caller).agentId;
  const toId = ctx.indexes.liveCallsigns.get(toCallsign);
  if (toId === undefined) throw new FleetError('NOT_FOUND', `${toCallsign} is not a live agent: it must be on the roster to receive claims`, { callsign: toCallsign });
  const claims = claimIds.map((id) => ownClaim(ctx, from, id, operator));
  for (const claim of claims) {
    assertNotInEscrow(ctx, claim);
    if (claim.heldFor !== undefined) throw heldForItem(claim);
  }
  assertMovable(ctx, claims, toId);
  const by = actorName(ctx.state, caller);
  return claims.map((claim) => moveClaim(ctx, claim, toId, by));
}

/** A claim held for a completed item belongs to the item: it ends when the item lands, not by its builder's hand. */
function heldForItem(claim: ClaimRecord): FleetError {
  return new FleetError(
    'INVALID_STATE',
    `claim ${claim.id} (${claim.pattern}) is held for work item ${claim.heldFor} until its branch lands on the target: it is released when the item lands (fleet land ${claim.heldFor}), when the operator marks it landed (fleet land --done ${claim.heldFor}), or when the item is rolled back or removed`,
    { claimId: claim.id, itemId: claim.heldFor },
  );
}

/** A claim in escrow belongs to its handoff: moving it elsewhere would leave the recipient accepting nothing. */
function assertNotInEscrow(ctx: Ctx, claim: ClaimRecord): void {
  if (claim.escrow === undefined) return;
  const handoff = ctx.state.handoffs.get(claim.escrow);
  throw new FleetError(
    'INVALID_STATE',
    `claim ${claim.id} (${claim.pattern}) travels with pending handoff ${claim.escrow}${handoff ? ` from ${handoff.envelope.from}` : ''}: it moves when the handoff is accepted and comes back if it is declined or expires; wait for that, or force-release the claim`,
    { claimId: claim.id, handoffId: claim.escrow },
  );
}

/**
 * A claim that coexisted with its holder's other claims may collide with them once another agent
 * holds it (invariant 1). Claims moving together are judged together; any collision refuses all.
 */
export function assertMovable(ctx: Ctx, claims: ClaimRecord[], toAgentId: string): void {
  const recipient = ctx.state.agents.get(toAgentId);
  if (claims.length > 0 && recipient?.role === 'verifier') {
    throw new FleetError('FORBIDDEN', `${recipient.callsign} is a verifier: verifiers read and test, so they cannot receive write territory`);
  }
  const moving = new Set(claims.map((c) => c.id));
  const budget = GlobBudget.forRequest();
  for (const claim of claims) {
    const matters = (other: ClaimRecord): boolean => !moving.has(other.id) && other.agentId !== toAgentId && !compatible(other.mode, claim.mode);
    // Undecided counts as overlapping: a move is refused rather than risk two holders.
    for (const { claim: other } of ctx.indexes.territory.overlapping(claim.scope, ctx.indexes.territory.compiledOf(claim), budget, matters)) {
      throw new FleetError(
        'INVALID_STATE',
        `moving ${claim.pattern} to ${callsignOf(ctx.state, toAgentId)} would overlap ${callsignOf(ctx.state, other.agentId)}'s ${other.mode} claim ${other.pattern}: move or release that one too`,
        { claimId: claim.id, overlaps: other.id },
      );
    }
  }
}

/** Ends a claim and grants the same territory to another agent with a new fence, with no gap between. */
export function moveClaim(ctx: Ctx, claim: ClaimRecord, toAgentId: string, by: string): GrantedClaim {
  releaseClaim(ctx, claim.id, 'transferred', by);
  const prepared: PreparedClaim = {
    agentId: toAgentId,
    scope: claim.scope,
    patterns: [ctx.indexes.territory.compiledOf(claim)],
    mode: claim.mode,
    budget: GlobBudget.forRequest(),
    ...(claim.ttlMs !== undefined && { ttlMs: claim.ttlMs }),
    ...(claim.reason !== undefined && { reason: claim.reason }),
    transferredFrom: claim.id,
  };
  return grant(ctx, prepared)[0]!;
}

export function forceRelease(ctx: Ctx, caller: Caller, claimIds: string[], reason: string): string[] {
  const by = actorName(ctx.state, caller);
  const found = claimIds.filter((id) => ctx.state.claims.has(id));
  for (const id of found) releaseClaim(ctx, id, 'force_released', by, reason);
  return found;
}

/** Sweeper step for a TTL claim: release it once its deadline has passed. */
export function sweepClaim(ctx: Ctx, claimId: string): void {
  const claim = ctx.state.claims.get(claimId);
  if (!claim || claim.expiresAt === undefined) return;
  if (ctx.now >= claim.expiresAt) releaseClaim(ctx, claimId, 'expired', 'plane');
  else ctx.schedule(claim.expiresAt, { kind: 'claim', claimId });
}

const CLAIM_INSTEAD = 'claim fewer patterns per request, or patterns under a literal directory (e.g. "src/api/**" rather than "**/api/**"), which are compared only with the claims under that directory';

/** A request whose glob work the budget cannot pay for: refused rather than decided slowly. */
export function tooMuchGlobWork(what: string, instead: string): FleetError {
  return new FleetError('PATTERN_TOO_COMPLEX', `${what} needs more glob-overlap work than one request may do (${REQUEST_GLOB_BUDGET} steps) against the live claims it may meet: ${instead}`, { budget: REQUEST_GLOB_BUDGET });
}
