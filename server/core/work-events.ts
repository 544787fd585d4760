import type { FleetEvent, WorkItem } from '../../contracts/index.js';

type WorkEvent<T extends FleetEvent['type']> = Extract<FleetEvent, { type: T }>;

/** A work item with its times as its keeper holds them: epoch ms in the plane, ISO text in the editor's copy. */
export type WorkShape<Time> = Omit<WorkItem, 'createdAt' | 'updatedAt'> & { createdAt: Time; updatedAt: Time };

/** The item `work.added` creates: ready, nothing blocking it yet. */
export function addedWork<Time>(event: WorkEvent<'work.added'>, at: Time): WorkShape<Time> {
  return {
    id: event.itemId,
    title: event.title,
    kind: event.kind,
    ...(event.parent !== undefined && { parent: event.parent }),
    dependsOn: event.dependsOn,
    paths: event.paths,
    criteria: event.criteria,
    ...(event.role !== undefined && { role: event.role }),
    ...(event.tier !== undefined && { tier: event.tier }),
    ...(event.scope !== undefined && { scope: event.scope }),
    ...(event.budgets !== undefined && { budgets: event.budgets }),
    status: 'ready',
    blockedBy: [],
    clarifications: [],
    reworkRounds: 0,
    createdAt: at,
    updatedAt: at,
  };
}

/** Applies `work.transitioned` to `item` in place; `person` names an agent id as the keeper shows it. */
export function transitionWork<Time>(item: WorkShape<Time>, event: WorkEvent<'work.transitioned'>, at: Time, person: (agentId: string) => string): void {
  item.status = event.status;
  item.updatedAt = at;
  if (event.assignee === null) delete item.assignee;
  else if (event.assignee !== undefined) item.assignee = person(event.assignee);
  if (event.verifier === null) delete item.verifier;
  else if (event.verifier !== undefined) item.verifier = person(event.verifier);
  if (event.reason !== undefined) item.statusReason = event.reason;
  if (event.artifact !== undefined) item.artifact = event.artifact;
  if (event.report !== undefined) item.report = event.report;
  if (event.decision !== undefined) {
    item.decision = event.decision;
    // The plane's own decisions (a failed verification, a spent budget) are the plane's, not the caller's whose call led to them.
    item.decidedBy = event.decision.producedBy ?? event.by ?? 'unknown';
  }
  if (event.verificationRequest !== undefined) item.verificationRequest = event.verificationRequest;
  if (event.startCommit !== undefined) item.startCommit = event.startCommit;
  if (event.integration !== undefined) item.integration = event.integration;
  if (event.landedCommit !== undefined) item.landedCommit = event.landedCommit;
  if (event.landedOnto !== undefined) item.landedOnto = event.landedOnto;
  if (event.reworkRounds !== undefined) item.reworkRounds = event.reworkRounds;
  if (event.escalation === null) delete item.escalation;
  else if (event.escalation !== undefined) item.escalation = event.escalation;
}
