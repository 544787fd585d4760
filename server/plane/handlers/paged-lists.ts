// The lists the plane hands out in pages (fleet_status, fleet_roster, fleet_claims,
// fleet_work_list, fleet_inbox), each defined once: which items, in which order, and their view.
import type { Ctx } from '../../core/context.js';
import { isRecipient } from '../../core/handoffs.js';
import { isInInbox, isUnreadBy } from '../../core/messages.js';
import { handoffView, messageView, workView } from '../../core/orchestration-views.js';
import type { AgentRecord, ClaimRecord } from '../../core/state.js';
import { agentView, claimView, parkedClaimView } from '../../core/views.js';
import { pagedList } from '../rpc/pager.js';

export const agentList = (ctx: Ctx, includeGone: boolean | undefined) =>
  pagedList({
    items: ctx.state.agents.values(),
    orderKey: `agents:${includeGone === true}`,
    keep: (agent) => includeGone === true || !agent.gone,
    createdAt: (agent) => agent.joinedAt,
    id: (agent) => agent.agentId,
    view: (agent) => agentView(agent, ctx.indexes, ctx.now, ctx.config),
  });

/** `filter` names what `keep` keeps (e.g. scope and holder), so pages of one filter share one order. */
export const claimList = (ctx: Ctx, keep?: { filter: string; keep: (claim: ClaimRecord) => boolean }) =>
  pagedList({
    items: ctx.state.claims.values(),
    orderKey: `claims:${keep?.filter ?? ''}`,
    ...(keep && { keep: keep.keep }),
    createdAt: (claim) => claim.grantedAt,
    id: (claim) => claim.id,
    view: (claim) => claimView(claim, ctx.state, ctx.config),
  });

/** Claims the scope migration parked, in the order they wait. */
export const parkedClaimList = (ctx: Ctx) =>
  pagedList({
    items: ctx.state.parkedClaims.values(),
    createdAt: (parked) => parked.parkedAt,
    id: (parked) => parked.id,
    view: (parked) => parkedClaimView(parked, ctx.state),
  });

export const workList = (ctx: Ctx, status: string | undefined, id?: string) =>
  pagedList({
    items: id !== undefined ? [ctx.state.work.get(id)].filter((item) => item !== undefined) : ctx.state.work.values(),
    orderKey: `work:${status ?? ''}:${id ?? ''}`,
    keep: (item) => status === undefined || item.status === status,
    createdAt: (item) => item.createdAt,
    id: (item) => item.id,
    view: (item) => workView(item, ctx.state),
  });

/** The agent's messages, newest first: the pager's order is ascending, so by negated send time. */
export const inboxList = (ctx: Ctx, agent: AgentRecord, unreadOnly: boolean | undefined) =>
  pagedList({
    items: ctx.state.messages.values(),
    keep: (message) => isInInbox(message, agent) && (unreadOnly !== true || isUnreadBy(message, agent)),
    createdAt: (message) => -message.sentAt,
    id: (message) => message.id,
    view: messageView,
  });

/** Handoffs waiting for the agent's answer, oldest first. */
export const pendingHandoffList = (ctx: Ctx, agent: AgentRecord) =>
  pagedList({
    items: ctx.state.handoffs.values(),
    keep: (handoff) => handoff.status === 'pending' && isRecipient(agent, handoff.envelope.to),
    createdAt: (handoff) => handoff.sentAt,
    id: (handoff) => handoff.id,
    view: handoffView,
  });
