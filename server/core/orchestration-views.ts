import type { BuildRun, Handoff, Message, WorkItem } from '../../contracts/index.js';
import type { BuildRunRecord, HandoffRecord, MessageRecord, WorkRecord } from './orchestration-records.js';
import type { State } from './state.js';
import { callsignOf, iso } from './views.js';

/** Public shapes (contracts/) of the orchestration records: callsigns for agent ids, ISO times. */
export function workView(item: WorkRecord, state: State): WorkItem {
  const { assignee, verifier, createdAt, updatedAt, ...rest } = item;
  return {
    ...rest,
    ...(assignee !== undefined && { assignee: callsignOf(state, assignee) }),
    ...(verifier !== undefined && { verifier: callsignOf(state, verifier) }),
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt),
  };
}

export function messageView(message: MessageRecord): Message {
  return { ...message, sentAt: iso(message.sentAt), updatedAt: iso(message.updatedAt) };
}

export function handoffView(handoff: HandoffRecord): Handoff {
  return {
    id: handoff.id,
    envelope: handoff.envelope,
    status: handoff.status,
    ...(handoff.acceptedBy !== undefined && { acceptedBy: handoff.acceptedBy }),
    ...(handoff.reason !== undefined && { reason: handoff.reason }),
    sentAt: iso(handoff.sentAt),
    expiresAt: iso(handoff.expiresAt),
    ...(handoff.resolvedAt !== undefined && { resolvedAt: iso(handoff.resolvedAt) }),
  };
}

export function buildRunView(run: BuildRunRecord): BuildRun {
  const { requestedAt, finishedAt, ...rest } = run;
  return { ...rest, requestedAt: iso(requestedAt), ...(finishedAt !== undefined && { finishedAt: iso(finishedAt) }) };
}
