// Helpers for the orchestration unit tests: thin wrappers that run one orchestration command on a
// core-harness FleetCore as a given caller, plus factories for artifacts, reports and decisions.
import type { BuildArtifact, ControlState, Decision, MessageStatus, VerificationReport } from '../../contracts/index.js';
import type { Caller } from '../../server/core/context.js';
import type { WorkRecord } from '../../server/core/orchestration-records.js';
import { setControl } from '../../server/core/control.js';
import { respondHandoff, sendHandoff, type HandoffInput } from '../../server/core/handoffs.js';
import { ackMessages, inbox, sendMessage, type MessageInput } from '../../server/core/messages.js';
import { checkPaths } from '../../server/core/path-check.js';
import { requireAgent } from '../../server/core/authority.js';
import { updateWork, type WorkUpdate } from '../../server/core/work-lifecycle.js';
import { configureWork, type WorkConfiguration } from '../../server/core/work-budgets.js';
import type { WorktreeFacts } from '../../server/core/work-guidance.js';
import { addWork, pullWork, type WorkInput } from '../../server/core/work-queue.js';
import { OPERATOR, SCOPE, joinAgent, makeHarness, type Harness, type JoinedAgent } from './core-harness.js';

export const artifact = (criteria: string[] = [], extra: Partial<BuildArtifact> = {}): BuildArtifact => ({
  touchedFiles: ['src/a.ts'],
  commands: [{ command: 'npm test', exitCode: 0 }],
  criteria,
  ...extra,
});

export const passReport = (criteria: string[]): VerificationReport => ({
  verdicts: (criteria.length > 0 ? criteria : ['it works']).map((criterion) => ({ criterion, verdict: 'pass' as const, evidence: `checked ${criterion}` })),
});

export const report = (verdicts: Record<string, 'pass' | 'fail' | 'inconclusive'>): VerificationReport => ({
  verdicts: Object.entries(verdicts).map(([criterion, verdict]) => ({ criterion, verdict, evidence: `looked at ${criterion}` })),
});

/** An artifact's content: what its producer sent, without the record fields the plane sealed it with. */
export function contentOf<T extends object>(artifact: T | undefined): Partial<T> | undefined {
  if (!artifact) return undefined;
  const sealed = new Set(['id', 'artifactId', 'schemaVersion', 'kind', 'workItem', 'producedByRole', 'producedBy', 'producedAt', 'sourceRefs', 'fingerprint']);
  return Object.fromEntries(Object.entries(artifact).filter(([key]) => !sealed.has(key))) as Partial<T>;
}

export const decision = (disposition: Decision['disposition'], reasonCode = 'criteria-met', refs: string[] = []): Decision => ({ disposition, reasonCode, refs });

/** Paths given with a scope: work items with paths need the repository they belong to. */
export const withPaths = (paths: string[]): Pick<WorkInput, 'paths' | 'scope'> => ({ paths, scope: SCOPE });

export function add(h: Harness, input: WorkInput, caller: Caller = OPERATOR) {
  return h.core.run(caller, (ctx) => addWork(ctx, caller, input));
}

export function pull(h: Harness, agent: JoinedAgent, facts?: WorktreeFacts) {
  return h.core.run(agent.caller, (ctx) => pullWork(ctx, agent.caller, h.core.queue, facts));
}

/** Any fleet_work_update action, as `caller`. */
export function update(h: Harness, caller: Caller, id: string, change: WorkUpdate) {
  return h.core.run(caller, (ctx) => updateWork(ctx, caller, id, change));
}

export function configure(h: Harness, input: WorkConfiguration, caller: Caller = OPERATOR) {
  return h.core.run(caller, (ctx) => configureWork(ctx, caller, input));
}

export function complete(h: Harness, caller: Caller, id: string, criteria: string[] = []) {
  return h.core.run(caller, (ctx) => updateWork(ctx, caller, id, { action: 'complete', artifact: artifact(criteria) }));
}

export function verify(h: Harness, caller: Caller, id: string, r: VerificationReport) {
  return h.core.run(caller, (ctx) => updateWork(ctx, caller, id, { action: 'verify', report: r }));
}

/**
 * A decision citing what the item rests on now when given no refs (and no note): its report, else
 * its build, else its plan (invariant 8); with nothing to cite it says so in a note, which only the
 * operator may do.
 */
export function decide(h: Harness, caller: Caller, id: string, d: Decision) {
  return h.core.run(caller, (ctx) => updateWork(ctx, caller, id, { action: 'decide', decision: d.refs.length > 0 || d.note !== undefined ? d : citing(ctx.state.work.get(id), d) }));
}

function citing(item: WorkRecord | undefined, d: Decision): Decision {
  const ref = item?.report?.artifactId ?? item?.artifact?.artifactId ?? item?.plan?.artifactId;
  return ref !== undefined ? { ...d, refs: [ref] } : { ...d, note: 'nothing of the item to cite' };
}

export function control(h: Harness, state: ControlState, caller: Caller = OPERATOR, reason?: string) {
  return h.core.run(caller, (ctx) => setControl(ctx, caller, state, reason));
}

export function handoff(h: Harness, from: JoinedAgent, input: Partial<HandoffInput> & Pick<HandoffInput, 'to'>) {
  const full = { summary: 'over to you', filesTouched: [], claims: [], nextSteps: [], openQuestions: [], artifacts: [], refs: [], ...input } as HandoffInput;
  return h.core.run(from.caller, (ctx) => sendHandoff(ctx, from.caller, full));
}

export function respond(h: Harness, agent: JoinedAgent, handoffId: string, accept: boolean, reason?: string) {
  return h.core.run(agent.caller, (ctx) => respondHandoff(ctx, agent.caller, { handoffId, accept, ...(reason !== undefined && { reason }) }));
}

export function send(h: Harness, caller: Caller, input: MessageInput) {
  return h.core.run(caller, (ctx) => sendMessage(ctx, caller, input));
}

export function ack(h: Harness, agent: JoinedAgent, ids: string[], status: Exclude<MessageStatus, 'PENDING'>) {
  return h.core.run(agent.caller, (ctx) => ackMessages(ctx, agent.caller, ids, status));
}

export function inboxOf(h: Harness, agent: JoinedAgent, options: { unreadOnly?: boolean; limit?: number } = {}) {
  return h.core.run(agent.caller, (ctx) => inbox(ctx, requireAgent(ctx.state, agent.caller), options));
}

/** The fleet check for one path, as `caller`. */
export function mayWrite(h: Harness, caller: Caller, path: string): boolean {
  return h.core.run(caller, (ctx) => checkPaths(ctx, caller, SCOPE, [path]))[0]!.allowed;
}

/** A small fleet: two builders, two verifiers, an RTE. */
export function orchestrationFleet(h: Harness = makeHarness()) {
  return {
    h,
    atlas: joinAgent(h, 'ATLAS', { role: 'builder' }),
    boreas: joinAgent(h, 'BOREAS', { role: 'builder' }),
    vera: joinAgent(h, 'VERA', { role: 'verifier' }),
    vik: joinAgent(h, 'VIK', { role: 'verifier' }),
    rte: joinAgent(h, 'RTE1', { role: 'rte' }),
  };
}

/** Drives the next item from ready into review, held by `verifier`, returning its id. */
export function toReview(h: Harness, builder: JoinedAgent, verifier: JoinedAgent, criteria: string[] = ['c1']): string {
  const pulled = pull(h, builder);
  if (!pulled.item) throw new Error(`${builder.callsign} pulled nothing`);
  complete(h, builder.caller, pulled.item.id, criteria);
  const review = pull(h, verifier);
  if (review.item?.id !== pulled.item.id) throw new Error(`${verifier.callsign} did not get ${pulled.item.id} for review`);
  return pulled.item.id;
}

/** Drives one item from ready through a passing verification, returning its id. */
export function toVerified(h: Harness, builder: JoinedAgent, verifier: JoinedAgent, criteria: string[] = ['c1']): string {
  const id = toReview(h, builder, verifier, criteria);
  verify(h, verifier.caller, id, passReport(criteria));
  return id;
}
