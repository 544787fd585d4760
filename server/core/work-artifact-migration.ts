import type { FleetEvent } from '../../contracts/index.js';
import type { WorkRecord } from './orchestration-records.js';
import type { State } from './state.js';
import { adoptLegacy, keepArtifact } from './work-artifacts.js';

/**
 * Artifacts stored before they were records (DESIGN §16: they get deterministic ids on migration).
 * The log replays as recorded: an old event's artifacts are given their record fields as they are
 * applied, and a snapshot's items when the state loads, with the same ids either way.
 */

/** A snapshot's items: their artifacts become records, readable by id. Their time is the item's last change. */
export function adoptLegacyArtifacts(state: State): void {
  for (const item of state.work.values()) {
    const facts = { workItem: item.id, at: item.updatedAt };
    if (item.plan) item.plan = adoptLegacy('BuildPlan', item.plan, facts);
    if (item.artifact) item.artifact = adoptLegacy('BuildArtifact', item.artifact, { ...facts, ...(item.assignee !== undefined && { by: callsignIn(state, item.assignee) }) });
    if (item.verificationRequest) item.verificationRequest = adoptLegacy('VerificationRequest', item.verificationRequest, { ...facts, by: 'plane' });
    if (item.report) item.report = adoptLegacy('VerificationReport', item.report, { ...facts, ...(item.verifier !== undefined && { by: callsignIn(state, item.verifier) }) });
    if (item.decision) item.decision = adoptLegacy('OrchestratorDecision', item.decision, { ...facts, ...(item.decidedBy !== undefined && { by: item.decidedBy }) });
    item.clarifications = item.clarifications.map(({ request, response }) => ({
      request: adoptLegacy('ClarificationRequest', request, { ...facts, by: request.askedBy }),
      ...(response && { response: adoptLegacy('ClarificationResponse', response, { ...facts, by: response.answeredBy }) }),
    }));
    keepHeld(state, item);
  }
}

function callsignIn(state: State, agentId: string): string {
  return state.agents.get(agentId)?.callsign ?? agentId;
}

function keepHeld(state: State, item: WorkRecord): void {
  for (const artifact of [item.plan, item.artifact, item.verificationRequest, item.report, item.decision, ...item.clarifications.flatMap((c) => [c.request, c.response])]) {
    if (artifact?.artifactId !== undefined && !state.artifacts.has(artifact.artifactId)) keepArtifact(state, artifact);
  }
}

type Transition = Extract<FleetEvent, { type: 'work.transitioned' }>;

/** An old `work.transitioned`'s artifacts as records (a current one's are returned as they are). */
export function adoptTransitionArtifacts(event: Transition): Transition {
  const facts = { workItem: event.itemId, at: event.at, ...(event.by !== undefined && { by: event.by }) };
  return {
    ...event,
    ...(event.artifact && { artifact: adoptLegacy('BuildArtifact', event.artifact, facts) }),
    ...(event.verificationRequest && { verificationRequest: adoptLegacy('VerificationRequest', event.verificationRequest, { ...facts, by: 'plane' }) }),
    ...(event.report && { report: adoptLegacy('VerificationReport', event.report, facts) }),
    ...(event.decision && { decision: adoptLegacy('OrchestratorDecision', event.decision, facts) }),
  };
}
