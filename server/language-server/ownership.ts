import type { Claim } from '../../contracts/index.js';
import type { Ownership, OwnershipHolder } from '../../contracts/lsp.js';
import { holderSummary } from './describe.js';

/**
 * Who holds a file, from the live claims covering it. `operatorAgentId` is the agent this window
 * joined as: its claims are "mine". Several distinct holders make the file contested; another
 * agent's exclusive claim makes it blocked for a person (DESIGN §4: a person may write a path
 * unless another agent's exclusive claim covers it).
 */
export function ownershipOf(covering: readonly Claim[], path: string, operatorAgentId: string | undefined): Ownership | null {
  if (covering.length === 0) return null;
  const holders: OwnershipHolder[] = [...covering]
    .sort((a, b) => a.grantedAt.localeCompare(b.grantedAt) || a.id.localeCompare(b.id))
    .map((claim) => ({
      claimId: claim.id,
      callsign: claim.holder,
      agentId: claim.agentId,
      pattern: claim.pattern,
      mode: claim.mode,
      expiresAt: claim.expiresAt,
      expiresWith: claim.expiresWith,
      ttl: claim.ttlSeconds !== undefined,
      ...(claim.reason !== undefined && { reason: claim.reason }),
      mine: operatorAgentId !== undefined && claim.agentId === operatorAgentId,
    }));
  const agents = new Set(holders.map((holder) => holder.agentId));
  const others = holders.filter((holder) => !holder.mine);
  const kind = agents.size > 1 ? 'contested' : others.length === 0 ? 'mine' : 'other';
  const first = others[0] ?? holders[0]!;
  return {
    kind,
    mark: kind === 'contested' ? contestedMark(agents.size) : callsignMark(first.callsign),
    holders,
    blocked: others.some((holder) => holder.mode === 'exclusive'),
    path,
    summary: holders.map((holder) => `${holderSummary(holder)}${holder.mine ? ' — yours' : ''}`).join('\n'),
  };
}

/** Two characters for a callsign: initials of a compound name (claude-bob → CB), else its first two. */
export function callsignMark(callsign: string): string {
  const words = callsign.split(/[-_]+/).filter((word) => word.length > 0);
  const mark = words.length >= 2 ? `${words[0]![0]}${words[words.length - 1]![0]}` : callsign.slice(0, 2);
  return mark.toUpperCase();
}

function contestedMark(holders: number): string {
  return holders > 9 ? '×+' : `×${holders}`;
}

/**
 * What a file shows, as a comparable key: an agent-bound claim's expiry moves with each heartbeat
 * and is left out, so heartbeats alone never re-send a file.
 */
export function ownershipKey(ownership: Ownership | null): string {
  if (!ownership) return '';
  return JSON.stringify({ ...ownership, holders: ownership.holders.map((holder) => (holder.ttl ? holder : { ...holder, expiresAt: '' })) });
}
