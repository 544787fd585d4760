import { MAX_DIGEST_VIOLATIONS, type Digest, type FleetEvent } from '../../contracts/index.js';
import { describeRecipient } from './handoffs.js';
import { personWaits } from './person-waits.js';
import type { Indexes } from './indexes.js';
import type { State } from './state.js';
import { callsignOf, iso } from './views.js';
import { workProtocolDigest } from './work-digest.js';

/**
 * The heartbeat digest of a window of the event log. A pure function of the window and the state
 * at its end, with "now" taken from the log itself, so the same log always gives the same digest.
 */
export function buildDigest(window: readonly FleetEvent[], state: State, indexes: Indexes, fromSeq: number): Digest {
  const last = window[window.length - 1];
  const now = last?.at ?? state.control.setAt;
  const completedBy = new Map<string, number>();
  const digest: Digest = {
    fromSeq,
    toSeq: last?.seq ?? fromSeq - 1,
    generatedAt: iso(now),
    control: { state: state.control.state, ...(state.control.reason !== undefined && { reason: state.control.reason }), setBy: state.control.setBy },
    agents: [],
    staleAgents: [],
    builds: [],
    blockers: [],
    claims: { acquired: [], released: [] },
    handoffs: [],
    workCompleted: [],
    workCounts: {},
    violations: [],
    controlChanges: [],
    awaitingDecision: [],
    unacknowledgedViolations: state.violations.size,
    forecasts: [],
    openForecastConflicts: state.forecasts.size,
    ...notComparedDigest(state),
    integration: { landed: [], landedPerAgent: {}, redBuilds: 0, conflicts: 0, failed: [] },
    ...workProtocolDigest(state),
    waitingForPerson: personWaits(state).map(({ agent, wait }) => ({ callsign: agent.callsign, runtime: agent.runtime, reason: wait.reason, message: wait.message, ...(wait.tool !== undefined && { tool: wait.tool }), since: iso(wait.since) })),
    eventCount: window.length,
  };
  for (const event of window) {
    switch (event.type) {
      case 'claim.granted':
        digest.claims.acquired.push({ holder: callsignOf(state, event.agentId), pattern: event.pattern, ...(event.reason !== undefined && { reason: event.reason }) });
        break;
      case 'claim.released':
        digest.claims.released.push({
          holder: event.agentId !== undefined ? callsignOf(state, event.agentId) : '?',
          pattern: event.pattern ?? event.claimId,
          reason: event.reason,
          ...(event.note !== undefined && { note: event.note }),
        });
        break;
      case 'handoff.sent':
        digest.handoffs.push({ id: event.handoffId, from: event.envelope.from, to: describeRecipient(event.envelope.to), status: 'pending' });
        break;
      case 'handoff.resolved': {
        const handoff = digest.handoffs.find((h) => h.id === event.handoffId);
        if (handoff) handoff.status = event.status;
        else {
          const known = state.handoffs.get(event.handoffId);
          digest.handoffs.push({ id: event.handoffId, from: known?.envelope.from ?? '?', to: known ? describeRecipient(known.envelope.to) : '?', status: event.status });
        }
        break;
      }
      case 'work.transitioned':
        if (event.status === 'done') {
          const item = state.work.get(event.itemId);
          const builder = finisherOf(state, item?.assignee, event);
          digest.workCompleted.push({ id: event.itemId, title: item?.title ?? event.itemId, by: builder });
          completedBy.set(builder, (completedBy.get(builder) ?? 0) + 1);
        }
        break;
      case 'control.set':
        digest.controlChanges.push({ state: event.state, ...(event.reason !== undefined && { reason: event.reason }), by: event.by ?? '?', at: iso(event.at) });
        break;
      case 'integration.batch_ended':
      case 'integration.left':
        countTrain(digest.integration, event, state);
        break;
      case 'territory.violated':
        if (digest.violations.length < MAX_DIGEST_VIOLATIONS) digest.violations.push({ path: event.path, writer: event.writer, holder: event.holder, source: event.source, at: iso(event.at) });
        break;
      case 'integration.forecast':
        if (digest.forecasts.length < MAX_DIGEST_VIOLATIONS) {
          const other = event.otherCallsign === undefined ? `the target ${event.otherBranch}` : `${event.otherCallsign} (${event.otherBranch})`;
          digest.forecasts.push({ status: event.status, agent: `${event.callsign}${event.branch ? ` (${event.branch})` : ''}`, other, paths: event.paths, at: iso(event.at) });
        }
        break;
      default:
        break;
    }
  }
  for (const agent of state.agents.values()) {
    if (agent.gone) continue;
    // Only what the log says: silence is the plane's recorded agent.unknown, not a clock reading.
    const status = agent.markedStalled ? 'stalled' : agent.markedUnknown ? 'unknown' : agent.reported;
    if (status === 'unknown' || status === 'stalled') digest.staleAgents.push(agent.callsign);
    if (agent.reported === 'blocked') digest.blockers.push({ kind: 'message', ref: agent.callsign, text: `${agent.callsign} reports blocked${agent.note ? `: ${agent.note}` : ''}` });
    digest.agents.push({
      callsign: agent.callsign,
      role: agent.role,
      runtime: agent.runtime,
      status,
      ...(agent.note !== undefined && { note: agent.note }),
      ...(agent.task !== undefined && { task: agent.task }),
      lastHeartbeatAt: iso(agent.heartbeatAt ?? agent.joinedAt),
      claims: indexes.claimsByAgent.get(agent.agentId)?.size ?? 0,
      workCompleted: completedBy.get(agent.callsign) ?? 0,
    });
  }
  for (const message of state.messages.values()) {
    if (message.type === 'BLOCKER' && message.status !== 'PROCESSED') digest.blockers.push({ kind: 'message', ref: message.id, text: `${message.from}: ${message.subject ?? message.body.slice(0, 120)}` });
  }
  for (const item of state.work.values()) {
    digest.workCounts[item.status] = (digest.workCounts[item.status] ?? 0) + 1;
    if (item.status === 'verified' || item.status === 'escalated') digest.awaitingDecision.push({ id: item.id, title: item.title, status: item.status });
    if (item.blockedBy.length > 0 || item.status === 'escalated') digest.blockers.push({ kind: 'work', ref: item.id, text: `${item.title}: ${item.status === 'escalated' ? 'escalated' : `waiting on ${item.blockedBy.join(', ')}`}` });
  }
  const latest = new Map<string, Digest['builds'][number]>();
  for (const run of state.buildRuns.values()) {
    if (run.status !== 'green' && run.status !== 'red') continue;
    latest.set(run.scope, { scope: run.scope, status: run.status, ...(run.commit !== undefined && { commit: run.commit }), exitCode: run.exitCode ?? null, ...(run.finishedAt !== undefined && { finishedAt: iso(run.finishedAt) }) });
  }
  digest.builds = [...latest.values()];
  for (const build of digest.builds) if (build.status === 'red') digest.blockers.push({ kind: 'build', ref: build.scope, text: `build is RED${build.commit ? ` at ${build.commit.slice(0, 10)}` : ''}` });
  return digest;
}

/**
 * Who finished an item: its builder; else the agent whose decision ended it; else, for a container
 * the plane closed because all its children were done, that reason rather than a name.
 */
function finisherOf(state: State, assignee: string | undefined, event: { by?: string | undefined; reason?: string | undefined }): string {
  if (assignee !== undefined) return callsignOf(state, assignee);
  if (event.by !== undefined && event.by !== 'plane') return callsignOf(state, event.by);
  return event.reason ?? 'the plane';
}

/** The write-sets the integrator could not compare with other branches, and why: a conflict there cannot be forecast. */
function notComparedDigest(state: State): Pick<Digest, 'notCompared' | 'notComparedCount'> {
  const records = [...state.writeSets.values()].filter((record) => record.notCompared !== undefined);
  const listed = records.slice(0, MAX_DIGEST_VIOLATIONS).map((record) => ({ callsign: record.callsign, ...(record.branch !== undefined && { branch: record.branch }), reason: record.notCompared ?? '' }));
  return { notCompared: listed, notComparedCount: records.length };
}

/** The train's part of a digest: landings (per builder, with accept → landed time), RED builds, conflicts, failures. */
function countTrain(train: Digest['integration'], event: Extract<FleetEvent, { type: 'integration.batch_ended' | 'integration.left' }>, state: State): void {
  if (event.type === 'integration.batch_ended') {
    if (event.red === true) train.redBuilds += 1;
    return;
  }
  if (event.cause === 'conflict') train.conflicts += 1;
  if (event.status === 'failed') train.failed.push({ id: event.itemId, reason: event.reason ?? '' });
  if (event.status !== 'landed' || event.landedCommit === undefined) return;
  const item = state.work.get(event.itemId);
  const by = item?.assignee !== undefined ? callsignOf(state, item.assignee) : (state.train.get(event.itemId)?.queuedBy ?? '?');
  const acceptedAt = item?.decision?.disposition === 'accept' && item.decision.producedAt !== undefined ? Date.parse(item.decision.producedAt) : undefined;
  train.landed.push({ id: event.itemId, title: item?.title ?? event.itemId, by, commit: event.landedCommit, ...(acceptedAt !== undefined && { acceptToLandedMs: event.at - acceptedAt }) });
  train.landedPerAgent[by] = (train.landedPerAgent[by] ?? 0) + 1;
}
