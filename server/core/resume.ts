import type { GuidancePacket } from '../../contracts/index.js';
import type { Ctx } from './context.js';
import { isRecipient } from './handoffs.js';
import { inbox } from './messages.js';
import type { HandoffRecord, WorkRecord } from './orchestration-records.js';
import type { AgentRecord, ClaimRecord } from './state.js';
import { latestGuidanceRef } from './work-guidance.js';

const RECENT_DECISIONS = 5;

/**
 * The statuses in which an item is still its builder's to think about: being built, sent back for
 * rework (the failing report and the plan are what it resumes from), or waiting on a question
 * that escalated to the operator.
 */
const BUILDING = new Set(['in_progress', 'rework', 'escalated']);

export interface ResumeAnchor {
  claims: ClaimRecord[];
  work: WorkRecord[];
  unread: ReturnType<typeof inbox>;
  handoffsToMe: HandoffRecord[];
  handoffsFromMe: HandoffRecord[];
  decisions: WorkRecord[];
  /** The guidance packets it was given with those items: a resumed turn works under them too (seed invariant 6). */
  guidance: GuidancePacket[];
}

/**
 * Everything an agent that lost its context needs to continue, in one call: what it holds, what
 * it was doing, what it has not read, what is being handed to or from it, and how its last work
 * was judged.
 */
export function resumeAnchor(ctx: Ctx, agent: AgentRecord): ResumeAnchor {
  const claims = ctx.indexes.claimIdsOf(agent.agentId).map((id) => ctx.state.claims.get(id)!);
  const items = [...ctx.state.work.values()];
  const work = items.filter((w) => (BUILDING.has(w.status) && w.assignee === agent.agentId) || (w.status === 'review' && w.verifier === agent.agentId));
  const pending = [...ctx.state.handoffs.values()].filter((h) => h.status === 'pending');
  const decisions = items
    // Decisions on its own work, and (for an RTE or operator) the decisions it made.
    .filter((w) => w.decision !== undefined && (w.assignee === agent.agentId || w.decidedBy === agent.callsign))
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, RECENT_DECISIONS);
  return {
    claims,
    work,
    unread: inbox(ctx, agent, { unreadOnly: true }),
    // A handoff to itself (a new session after context exhaustion) shows up here too.
    handoffsToMe: pending.filter((h) => isRecipient(agent, h.envelope.to)),
    handoffsFromMe: pending.filter((h) => h.fromAgentId === agent.agentId),
    decisions,
    guidance: work.flatMap((w) => {
      const packet = ctx.state.guidancePackets.get(latestGuidanceRef(ctx.state, w.id, agent.callsign) ?? '');
      return packet ? [packet] : [];
    }),
  };
}
