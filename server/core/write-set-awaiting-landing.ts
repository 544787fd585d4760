import { MAX_AWAITING_LANDING_ITEMS } from '../../contracts/index.js';
import type { Ctx } from './context.js';
import type { Indexes } from './indexes.js';
import { endWriteSet, forgetIntegrationOf, type WriteSetRecord } from './integration-forecast.js';
import type { State } from './state.js';

/*
 * A builder that is gone (its session ended, the demo's builders leave) may leave work that has not
 * landed: items it completed on a branch of its own, their claims held until they land (DESIGN §14).
 * That branch is the one most likely to collide when branches meet, so its write-set stays, still
 * forecast against from its last snapshot, until none of those items waits: it lands, is marked
 * landed, goes back to a builder, is rolled back or removed (each ends its held claims).
 */

/** The items `agentId` built on its write-set's branch whose claims are held until they land, as its gone event lists them. */
export function awaitingLandingOf(state: State, indexes: Indexes, agentId: string): { awaitingLanding?: string[] } {
  const branch = state.writeSets.get(agentId)?.branch;
  if (branch === undefined) return {};
  const items = new Set<string>();
  for (const claimId of indexes.claimIdsOf(agentId)) {
    const itemId = state.claims.get(claimId)?.heldFor;
    const integration = itemId === undefined ? undefined : state.work.get(itemId)?.integration;
    if (integration !== undefined && `refs/heads/${integration.branch}` === branch) items.add(itemId!);
  }
  return items.size === 0 ? {} : { awaitingLanding: [...items].sort().slice(0, MAX_AWAITING_LANDING_ITEMS) };
}

/** Reducer: an agent went; its write-set stays (with its forecasts) when its event lists items awaiting landing, else goes. */
export function applyAgentGone(state: State, agentId: string, gone: 'left' | 'expired', awaitingLanding: readonly string[] | undefined): void {
  const record = state.writeSets.get(agentId);
  if (record === undefined || awaitingLanding === undefined || awaitingLanding.length === 0) return forgetIntegrationOf(state, agentId);
  state.writeSets.set(agentId, { ...record, awaitingLanding: { agent: gone, items: [...awaitingLanding] } });
}

/** Reducer: the agent is back: its write-set is its live work again (recomputed; one of another branch replaces it). */
export function applyAgentBack(state: State, agentId: string): void {
  const record = state.writeSets.get(agentId);
  if (record?.awaitingLanding !== undefined) state.writeSets.set(agentId, live(record));
}

const live = ({ awaitingLanding: _, ...record }: WriteSetRecord): WriteSetRecord => record;

/** Reducer: the last claim held for an item ended: it awaits landing on no gone builder's write-set any more. */
export function applyItemNoLongerHeld(state: State, itemId: string): void {
  for (const record of state.writeSets.values()) {
    const waiting = record.awaitingLanding;
    if (waiting?.items.includes(itemId)) state.writeSets.set(record.agentId, { ...record, awaitingLanding: { ...waiting, items: waiting.items.filter((id) => id !== itemId) } });
  }
}

/** A gone builder's write-set whose items all stopped waiting ends, its forecasts cleared. */
export function endWriteSetsNoLongerAwaiting(ctx: Ctx): void {
  for (const record of [...ctx.state.writeSets.values()]) {
    if (record.awaitingLanding?.items.length === 0) endWriteSet(ctx, record.agentId);
  }
}
