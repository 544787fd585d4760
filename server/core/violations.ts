import { UNKNOWN_WRITER, type FleetEvent, type Violation } from '../../contracts/index.js';
import type { Ctx } from './context.js';
import type { Indexes } from './indexes.js';
import type { ClaimRecord, State, ViolationRecord } from './state.js';
import { callsignOf, iso } from './views.js';

/** The unacknowledged violations the state keeps; past it the oldest go (the log keeps them all). */
export const MAX_UNACKNOWLEDGED_VIOLATIONS = 500;

/** A change seen in a worktree, as the watcher (or a hook) reports it to the core. */
export interface ObservedWrite {
  scope: string;
  path: string;
  /** The agents that may have written it: exactly one is the writer; none or several leave it unknown. */
  writers: readonly string[];
  source: string;
  fingerprint: string;
  /** With no writer: the agents whose hooked calls elsewhere were in flight when it was seen (none taken for the writer). */
  callsInFlight?: readonly string[];
  /** When it was first seen: a claim granted later was not there to break (its holder claimed a file already changed). */
  seenAt?: number;
}

/**
 * The exclusive claim a write broke, if any. A claim of one of the possible writers breaks
 * nothing: that agent may be the holder writing its own territory. Nor does a claim granted after
 * the write was seen (a watcher judges a burst ~100 ms after seeing it; a claim granted meanwhile
 * turned another agent's earlier write into a "violation", seen in CI).
 */
export function violatedClaim(indexes: Indexes, write: Pick<ObservedWrite, 'scope' | 'path' | 'writers' | 'seenAt'>): ClaimRecord | undefined {
  for (const claim of indexes.territory.covering(write.scope, write.path)) {
    if (claim.mode === 'exclusive' && !write.writers.includes(claim.agentId) && (write.seenAt === undefined || claim.grantedAt <= write.seenAt)) return claim;
  }
  return undefined;
}

/** Records the write as `territory.violated`, unless it broke no claim or repeats an unacknowledged one. */
export function recordViolation(ctx: Ctx, write: ObservedWrite): FleetEvent | undefined {
  const claim = violatedClaim(ctx.indexes, write);
  if (!claim) return undefined;
  for (const known of ctx.state.violations.values()) {
    if (known.scope === write.scope && known.path === write.path && known.fingerprint === write.fingerprint) return undefined;
  }
  const writerAgentId = write.writers.length === 1 ? write.writers[0] : undefined;
  return ctx.emit({
    type: 'territory.violated',
    by: write.source,
    violationId: ctx.ids.id('vi'),
    scope: write.scope,
    path: write.path,
    writer: writerAgentId !== undefined ? callsignOf(ctx.state, writerAgentId) : UNKNOWN_WRITER,
    ...(writerAgentId !== undefined && { writerAgentId }),
    ...(writerAgentId === undefined && write.callsInFlight !== undefined && write.callsInFlight.length > 0 && { callsInFlight: write.callsInFlight.map((agentId) => callsignOf(ctx.state, agentId)) }),
    holder: callsignOf(ctx.state, claim.agentId),
    holderAgentId: claim.agentId,
    claimId: claim.id,
    fence: claim.fence,
    source: write.source,
    fingerprint: write.fingerprint,
  });
}

/** The operator's acknowledgement; ids no longer listed are skipped, so a repeat changes nothing. */
export function acknowledgeViolations(ctx: Ctx, by: string, ids: readonly string[] | 'all'): string[] {
  const acknowledged = ids === 'all' ? [...ctx.state.violations.keys()] : [...new Set(ids)].filter((id) => ctx.state.violations.has(id));
  if (acknowledged.length > 0) ctx.emit({ type: 'territory.violations_acknowledged', by, violationIds: acknowledged });
  return acknowledged;
}

type ViolationEvent = Extract<FleetEvent, { type: 'territory.violated' | 'territory.violations_acknowledged' }>;

/** The reducer's part for violations (see reducer.ts). */
export function applyViolationEvent(state: State, event: ViolationEvent): void {
  if (event.type === 'territory.violations_acknowledged') {
    for (const id of event.violationIds) state.violations.delete(id);
    return;
  }
  state.violations.set(event.violationId, violationOf(event));
  if (state.violations.size > MAX_UNACKNOWLEDGED_VIOLATIONS) state.violations.delete(state.violations.keys().next().value!);
}

/** The record an event leaves in the state (history reads it from the log alike). */
export function violationOf(event: Extract<FleetEvent, { type: 'territory.violated' }>): ViolationRecord {
  const { violationId: id, scope, path, writer, holder, claimId, fence, source, fingerprint, at } = event;
  return { id, scope, path, writer, holder, claimId, fence, source, fingerprint, at };
}

/** Newest first, as the operator reads them. */
export function violationViews(state: State, limit: number): Violation[] {
  return [...state.violations.values()].reverse().slice(0, limit).map(violationView);
}

export function violationView(record: ViolationRecord): Violation {
  return { ...record, at: iso(record.at) };
}
