import { ACCEPTED_STATUSES, FleetError, type GuidancePacket, type ParsedParams, type Role, type WorkKind } from '../../contracts/index.js';
import { actorName, requireAgent } from './authority.js';
import type { ClaimQueue } from './claim-queue.js';
import type { Caller, Ctx } from './context.js';
import type { WorkRecord } from './orchestration-records.js';
import { claimablePattern, compileRecordedPattern } from './patterns.js';
import type { AgentRecord } from './state.js';
import { findConflicts, grant, prepareClaim, type GrantedClaim } from './territory.js';
import { releaseHeldClaims } from './work-claims.js';
import { guidanceFor, type WorktreeFacts } from './work-guidance.js';

const KIND_RANK: Record<WorkKind, number> = { telos: 0, epic: 1, story: 2, task: 3 };

/** `paths` relative to the scope's worktree root, already resolved by the caller from `root`. */
export type WorkInput = Omit<ParsedParams<'fleet_work_add'>, 'root'> & { scope?: string };

/** Adds an item to the goal hierarchy: a child sits below its parent's kind; dependencies must exist. */
export function addWork(ctx: Ctx, caller: Caller, input: WorkInput): WorkRecord {
  const kind = input.kind ?? 'task';
  if (input.parent !== undefined) {
    const parent = ctx.state.work.get(input.parent);
    if (!parent) throw new FleetError('NOT_FOUND', `no parent item ${input.parent}`);
    if (KIND_RANK[parent.kind] >= KIND_RANK[kind]) {
      throw new FleetError('INVALID_PARAMS', `a ${kind} cannot sit under a ${parent.kind}: the hierarchy runs telos → epic → story → task`);
    }
  }
  for (const dependency of input.dependsOn ?? []) {
    if (!ctx.state.work.has(dependency)) throw new FleetError('NOT_FOUND', `dependsOn names ${dependency}, which is not a work item`);
  }
  if ((input.paths?.length ?? 0) > 0 && input.scope === undefined) throw new FleetError('INVALID_PARAMS', 'paths need a root: the repository they belong to');
  const itemId = ctx.ids.id('wk');
  ctx.emit({
    type: 'work.added',
    by: actorName(ctx.state, caller),
    itemId,
    title: input.title,
    kind,
    ...(input.parent !== undefined && { parent: input.parent }),
    dependsOn: [...new Set(input.dependsOn ?? [])],
    paths: (input.paths ?? []).map(claimablePattern),
    criteria: input.criteria ?? [],
    ...(input.role !== undefined && { role: input.role }),
    ...(input.tier !== undefined && { tier: input.tier }),
    ...(input.scope !== undefined && { scope: input.scope }),
    ...(input.budgets !== undefined && Object.keys(input.budgets).length > 0 && { budgets: input.budgets }),
  });
  return ctx.state.work.get(itemId)!;
}

export interface PullOutcome {
  item: WorkRecord | null;
  claims: GrantedClaim[];
  refusedBy?: 'control';
  guidance?: GuidancePacket;
}

/**
 * Gives the agent the oldest item it can take now and claims the item's paths in the same step,
 * so two agents never get one item. Items whose paths are held are skipped, never waited on.
 * Verifiers pull items awaiting review (no claims: verifiers do not write). With the facts of the
 * agent's worktree, the pull carries its guidance and records the commit a build starts from.
 */
export function pullWork(ctx: Ctx, caller: Caller, queue: ClaimQueue, facts?: WorktreeFacts): PullOutcome {
  const agent = requireAgent(ctx.state, caller);
  const outcome = pullFor(ctx, agent, queue, facts?.head);
  return facts ? { ...outcome, guidance: guidanceFor(ctx, agent, facts, outcome.item?.id) } : outcome;
}

function pullFor(ctx: Ctx, agent: AgentRecord, queue: ClaimQueue, head: string | undefined): PullOutcome {
  if (ctx.state.control.state !== 'run') return { item: null, claims: [], refusedBy: 'control' };
  if (agent.role === 'verifier') return pullReview(ctx, agent);
  if (agent.role === 'rte' || agent.role === 'operator') return { item: null, claims: [] };
  const containers = new Set([...ctx.state.work.values()].flatMap((w) => (w.parent !== undefined ? [w.parent] : [])));
  for (const item of ctx.state.work.values()) {
    if (!isPullable(ctx, item, agent, containers)) continue;
    const claims = claimPaths(ctx, agent, item, queue);
    if (claims === undefined) continue;
    ctx.emit({ type: 'work.transitioned', by: agent.callsign, itemId: item.id, status: 'in_progress', assignee: agent.agentId, verifier: null, ...(head !== undefined && item.startCommit === undefined && { startCommit: head }) });
    return { item, claims };
  }
  return { item: null, claims: [] };
}

function isPullable(ctx: Ctx, item: WorkRecord, agent: AgentRecord, containers: Set<string>): boolean {
  if (item.status !== 'ready' && item.status !== 'rework') return false;
  if (containers.has(item.id) || item.blockedBy.length > 0) return false;
  if (!dependenciesDone(ctx, item)) return false;
  if (item.tier !== undefined ? item.tier !== agent.tier : !suitsUnmarked(item, agent)) return false;
  return item.role === undefined || item.role === agent.role || (isBuilder(item.role) && isBuilder(agent.role));
}

/** Tier `edge` pulls coarser work (DESIGN §13): an item not marked for a tier only when it is a story or above. */
function suitsUnmarked(item: WorkRecord, agent: AgentRecord): boolean {
  return agent.tier !== 'edge' || KIND_RANK[item.kind] <= KIND_RANK.story;
}

/** An item waits for its own dependencies and for those of every ancestor: a child is constrained by its parent. */
function dependenciesDone(ctx: Ctx, item: WorkRecord): boolean {
  for (let current: WorkRecord | undefined = item; current; current = current.parent !== undefined ? ctx.state.work.get(current.parent) : undefined) {
    if (!current.dependsOn.every((id) => ACCEPTED_STATUSES.has(ctx.state.work.get(id)?.status ?? 'ready'))) return false;
  }
  return true;
}

const isBuilder = (role: Role): boolean => role === 'worker' || role === 'builder';

/** The item's paths, claimed exclusively for the agent, or undefined when any is held. */
function claimPaths(ctx: Ctx, agent: AgentRecord, item: WorkRecord, queue: ClaimQueue): GrantedClaim[] | undefined {
  if (item.paths.length === 0 || item.scope === undefined) return [];
  // The claims held for the item since its last completion are its builder's to take back.
  const request = { ...prepareClaim(agent.agentId, { scope: item.scope, patterns: item.paths, reason: `work ${item.id}: ${item.title}` }, compileRecordedPattern), reclaims: item.id };
  if (findConflicts(ctx, request).length > 0 || queue.conflictsWithQueued(ctx, request).length > 0) return undefined;
  releaseHeldClaims(ctx, item.id, agent.callsign, `${item.id} went back to a builder (${agent.callsign})`);
  return grant(ctx, request);
}

function pullReview(ctx: Ctx, agent: AgentRecord): PullOutcome {
  for (const item of ctx.state.work.values()) {
    // Independent verification: never the builder's own work.
    if (item.status !== 'review' || item.verifier !== undefined || item.assignee === agent.agentId) continue;
    ctx.emit({ type: 'work.transitioned', by: agent.callsign, itemId: item.id, status: 'review', verifier: agent.agentId });
    return { item, claims: [] };
  }
  return { item: null, claims: [] };
}
