import type { Claim } from '../../contracts/index.js';
import type { Ownership, OwnershipEntry, OwnershipHolder } from '../../contracts/lsp.js';
import { callsignMark } from './agent-marks.js';
import { holderSummary } from './describe.js';
import type { FleetMirror } from './fleet-mirror.js';
import type { FileLocation } from './workspace-scopes.js';

/** What the editor is told about one file or folder (an ownership entry without its URI). */
export type FileOwnership = Omit<OwnershipEntry, 'uri'>;

/** A path no file has as its last segment: a pattern that matches `folder/<this>` covers everything in the folder. */
const ANY_CHILD = '\u200b';

/**
 * Who holds a file or folder: the claims covering it, plus for a folder the claims that cover all
 * of it (`src/**` holds `src` as it holds `src/parser`), and, when nobody holds it, how many claims
 * lie inside it (the hint a collapsed folder shows).
 */
export function ownershipOf(mirror: FleetMirror, location: FileLocation, operatorAgentId: string | undefined): FileOwnership {
  const { scope, path } = location;
  const covering = new Map(mirror.covering(scope, path).map((claim) => [claim.id, claim]));
  for (const claim of mirror.covering(scope, path === '' ? ANY_CHILD : `${path}/${ANY_CHILD}`)) {
    if (claim.pattern === '**' || claim.pattern.endsWith('/**')) covering.set(claim.id, claim);
  }
  const ownership = ownershipFrom([...covering.values()], path, operatorAgentId, (agentId) => mirror.markOf(agentId));
  if (ownership) return { ownership };
  const inside = mirror.heldInside(scope, path);
  return inside > 0 ? { ownership: null, heldInside: inside } : { ownership: null };
}

/**
 * Who holds a file, from the live claims covering it. `operatorAgentId` is the agent this window
 * joined as: its claims are "mine". Contested means a real conflict: an exclusive claim beside
 * another agent's claim. Several agents holding shared claims share the file, which is no conflict.
 * Another agent's exclusive claim makes it blocked for a person (DESIGN §4: a person may write a
 * path unless another agent's exclusive claim covers it).
 */
export function ownershipFrom(covering: readonly Claim[], path: string, operatorAgentId: string | undefined, markOf: (agentId: string) => string | undefined = () => undefined): Ownership | null {
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
      mark: markOf(claim.agentId) ?? callsignMark(claim.holder),
      ...(claim.heldFor !== undefined && { heldFor: claim.heldFor }),
    }));
  const agents = new Set(holders.map((holder) => holder.agentId));
  const others = holders.filter((holder) => !holder.mine);
  const conflict = agents.size > 1 && holders.some((holder) => holder.mode === 'exclusive');
  const kind = conflict ? 'contested' : others.length === 0 ? 'mine' : others.some((holder) => holder.mode === 'exclusive') ? 'other' : 'shared';
  const first = others[0] ?? holders[0]!;
  const mark = kind === 'contested' ? several('×', agents.size) : kind === 'shared' && agents.size > 1 ? several('∥', agents.size) : first.mark!;
  return {
    kind,
    mark,
    holders,
    blocked: others.some((holder) => holder.mode === 'exclusive'),
    path,
    summary: holders.map((holder) => `${holderSummary(holder)}${holder.mine ? ' — yours' : ''}`).join('\n'),
  };
}

/** ×2 (contested by two agents), ∥3 (shared by three). */
function several(sign: string, count: number): string {
  return count > 9 ? `${sign}+` : `${sign}${count}`;
}

/**
 * What a file shows, as a comparable key: an agent-bound claim's expiry moves with each heartbeat
 * and is left out, so heartbeats alone never re-send a file.
 */
export function ownershipKey({ ownership, heldInside }: FileOwnership): string {
  if (!ownership) return heldInside === undefined ? '' : String(heldInside);
  return JSON.stringify({ ...ownership, holders: ownership.holders.map((holder) => (holder.ttl ? holder : { ...holder, expiresAt: '' })) });
}
