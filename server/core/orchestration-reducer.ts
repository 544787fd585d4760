import type { FleetEvent } from '../../contracts/index.js';
import { MAX_KEPT_BUILD_RUNS, MAX_KEPT_GUIDANCE_PACKETS } from './orchestration-records.js';
import type { State } from './state.js';
import { adoptTransitionArtifacts } from './work-artifact-migration.js';
import { adoptLegacy, keepArtifact } from './work-artifacts.js';
import { addedWork, transitionWork } from './work-events.js';

type OrchestrationEvent = Extract<
  FleetEvent,
  { type: `handoff.${string}` | `message.${string}` | `work.${string}` | `build.${string}` | 'claim.escrowed' | 'claim.unescrowed' | 'override.used' | 'digest.published' }
>;

/** The reducer's half for handoffs, messages, work items and builds (see reducer.ts). */
export function applyOrchestrationEvent(state: State, event: OrchestrationEvent): void {
  switch (event.type) {
    case 'claim.escrowed': {
      const claim = state.claims.get(event.claimId);
      if (claim) claim.escrow = event.handoffId;
      return;
    }
    case 'claim.unescrowed': {
      const claim = state.claims.get(event.claimId);
      if (claim) delete claim.escrow;
      return;
    }
    case 'handoff.sent':
      state.handoffs.set(event.handoffId, {
        id: event.handoffId,
        envelope: event.envelope,
        fromAgentId: event.fromAgentId,
        status: 'pending',
        sentAt: event.at,
        expiresAt: event.expiresAt,
      });
      return;
    case 'handoff.resolved': {
      const handoff = state.handoffs.get(event.handoffId);
      if (!handoff) return;
      handoff.status = event.status;
      handoff.resolvedAt = event.at;
      if (event.acceptedBy !== undefined) handoff.acceptedBy = event.acceptedBy;
      if (event.reason !== undefined) handoff.reason = event.reason;
      return;
    }
    case 'message.sent':
      state.messages.set(event.messageId, {
        id: event.messageId,
        from: event.from,
        to: event.to,
        type: event.messageType,
        priority: event.priority,
        ...(event.subject !== undefined && { subject: event.subject }),
        body: event.body,
        refs: event.refs,
        ...(event.workItem !== undefined && { workItem: event.workItem }),
        mentions: event.mentions,
        status: 'PENDING',
        ackedBy: [],
        sentAt: event.at,
        updatedAt: event.at,
      });
      return;
    case 'message.status': {
      const message = state.messages.get(event.messageId);
      if (!message) return;
      message.status = event.status;
      message.updatedAt = event.at;
      if (event.by !== undefined && !message.ackedBy.includes(event.by)) message.ackedBy.push(event.by);
      return;
    }
    case 'work.added':
      state.work.set(event.itemId, addedWork(event, event.at));
      return;
    case 'work.transitioned': {
      const item = state.work.get(event.itemId);
      if (!item) return;
      const transition = adoptTransitionArtifacts(event);
      transitionWork(item, transition, event.at, (agentId) => agentId);
      for (const artifact of [transition.artifact, transition.verificationRequest, transition.report, transition.decision, transition.escalation?.question]) keepArtifact(state, artifact);
      return;
    }
    case 'work.planned': {
      const item = state.work.get(event.itemId);
      if (!item) return;
      item.plan = adoptLegacy('BuildPlan', event.plan, { workItem: item.id, at: event.at, ...(event.by !== undefined && { by: event.by }) });
      keepArtifact(state, item.plan);
      return;
    }
    case 'work.clarification_asked': {
      const item = state.work.get(event.itemId);
      if (!item) return;
      const request = adoptLegacy('ClarificationRequest', event.request, { workItem: item.id, at: event.at, by: event.request.askedBy });
      item.clarifications.push({ request });
      keepArtifact(state, request);
      return;
    }
    case 'work.clarification_answered': {
      const item = state.work.get(event.itemId);
      if (!item) return;
      const response = adoptLegacy('ClarificationResponse', event.response, { workItem: item.id, at: event.at, by: event.response.answeredBy });
      const round = item.clarifications.find((c) => c.request.id === response.requestId);
      if (round) round.response = response;
      // The operator's answer to a question that escalated: it becomes a round of its own.
      else if (item.escalation?.question?.id === response.requestId) item.clarifications.push({ request: item.escalation.question, response });
      keepArtifact(state, response);
      return;
    }
    case 'work.guided':
      state.guidancePackets.set(event.packet.artifactId ?? '', event.packet);
      for (const id of state.guidancePackets.keys()) {
        if (state.guidancePackets.size <= MAX_KEPT_GUIDANCE_PACKETS) break;
        state.guidancePackets.delete(id);
      }
      return;
    case 'work.configured': {
      const { itemId, reworkRounds, clarificationRounds, planRequired } = event;
      const budgets = { ...(reworkRounds !== undefined && { reworkRounds }), ...(clarificationRounds !== undefined && { clarificationRounds }) };
      if (itemId === undefined) Object.assign(state.workSettings, budgets, planRequired !== undefined && { planRequired });
      else {
        const item = state.work.get(itemId);
        if (item) item.budgets = { ...item.budgets, ...budgets };
      }
      return;
    }
    case 'work.guidance':
      state.guidance.set(event.worktree, { worktree: event.worktree, version: event.version, policyHash: event.policyHash });
      return;
    case 'work.blockers': {
      const item = state.work.get(event.itemId);
      if (item) item.blockedBy = event.blockedBy;
      return;
    }
    case 'work.removed': {
      const removed = new Set(event.itemIds);
      for (const id of removed) state.work.delete(id);
      for (const [id, artifact] of state.artifacts) if (artifact.workItem !== undefined && removed.has(artifact.workItem)) state.artifacts.delete(id);
      return;
    }
    case 'build.configured':
      state.buildConfigs.set(event.scope, {
        scope: event.scope,
        command: event.command,
        worktree: event.worktree,
        timeoutSeconds: event.timeoutSeconds,
        configuredBy: event.by ?? 'operator',
      });
      return;
    case 'build.requested':
      state.buildRuns.set(event.runId, { id: event.runId, scope: event.scope, status: 'queued', requestedBy: event.by ?? 'unknown', command: event.command, requestedAt: event.at });
      pruneBuildRuns(state);
      return;
    case 'build.started': {
      const run = state.buildRuns.get(event.runId);
      if (!run) return;
      run.status = 'running';
      if (event.commit !== undefined) run.commit = event.commit;
      return;
    }
    case 'build.finished': {
      const run = state.buildRuns.get(event.runId);
      if (!run) return;
      Object.assign(run, {
        status: event.status,
        exitCode: event.exitCode,
        durationMs: event.durationMs,
        logTail: event.logTail,
        timedOut: event.timedOut,
        finishedAt: event.at,
        ...(event.commit !== undefined && { commit: event.commit }),
      });
      return;
    }
    case 'digest.published':
      state.lastDigestSeq = event.toSeq;
      return;
    case 'override.used':
      return;
    default: {
      const unhandled: never = event;
      throw new Error(`no reducer for event ${(unhandled as FleetEvent).type}`);
    }
  }
}

/** Only finished runs are pruned, oldest first; the log keeps every run. */
function pruneBuildRuns(state: State): void {
  if (state.buildRuns.size <= MAX_KEPT_BUILD_RUNS) return;
  for (const run of state.buildRuns.values()) {
    if (state.buildRuns.size <= MAX_KEPT_BUILD_RUNS) return;
    if (run.status === 'green' || run.status === 'red') state.buildRuns.delete(run.id);
  }
}
