import { COMMIT_REF, FleetError, type Decision } from '../../contracts/index.js';
import { isOperator } from './authority.js';
import type { Caller, Ctx } from './context.js';
import type { WorkRecord } from './orchestration-records.js';
import { currentRefs, inlineArtifacts } from './work-artifacts.js';

/**
 * Invariant 8 of the handoff protocol: a decision cites the artifacts it rests on, and they exist.
 * An RTE's accept cites the verification report; a rework or rollback the failing report or the
 * build; any other at least one artifact of the item (the guidance it was pulled with, if nothing
 * else), and never nothing: an item never pulled has none, so the RTE cites what it rests on
 * elsewhere or leaves it to the operator, who may cite a commit or give a note (DESIGN §16).
 */
export function requireCitations(ctx: Ctx, caller: Caller, item: WorkRecord, decision: Decision): void {
  const operator = isOperator(ctx.state, caller);
  for (const ref of decision.refs) {
    if (ctx.state.artifacts.has(ref) || ctx.state.guidancePackets.has(ref) || (operator && COMMIT_REF.test(ref))) continue;
    throw new FleetError('INVALID_PARAMS', `decision.refs names ${ref}, which is no artifact${operator ? ' or commit hash' : ''}: cite the ids of the artifacts the decision rests on${suggestion(ctx, item)}`);
  }
  if (operator) {
    if (decision.refs.length > 0 || decision.note !== undefined) return;
    throw new FleetError('INVALID_PARAMS', `a decision says what it rests on: cite artifacts or a commit in decision.refs, or give a note${suggestion(ctx, item)}`);
  }
  const required = requiredRefs(ctx, item, decision.disposition);
  if (decision.refs.some((ref) => required.includes(ref))) return;
  if (required.length === 0) {
    if (decision.refs.length > 0) return;
    throw new FleetError('INVALID_PARAMS', `${item.id} has no artifact to rest a ${decision.disposition} on (it was never pulled): cite the artifacts the decision rests on in decision.refs, or leave it to the operator, who may decide with a note`);
  }
  throw new FleetError('INVALID_PARAMS', `${decision.disposition === 'accept' ? 'an accept rests on the verification report' : `a ${decision.disposition} rests on ${REQUIRED_WHAT[decision.disposition]}`}: cite ${required.length > 1 ? 'one of ' : ''}${required.join(', ')} in decision.refs`);
}

const REQUIRED_WHAT = { rework: 'the failing report or the build', rollback: 'the failing report or the build', escalate: 'an artifact of the item' } as const;

/**
 * Which of the item's artifacts a decision must cite (one of them): what was built and judged, else
 * anything the item holds, down to the guidance its builder pulled it with; none when never pulled.
 */
function requiredRefs(ctx: Ctx, item: WorkRecord, disposition: Decision['disposition']): string[] {
  const present = (ids: (string | undefined)[]) => ids.filter((id): id is string => id !== undefined);
  if (disposition === 'accept') return present(currentRefs(item, 'report'));
  const judged = present(currentRefs(item, 'report', 'artifact'));
  if (disposition !== 'escalate' && judged.length > 0) return judged;
  return present([...inlineArtifacts(item).map(([, artifact]) => artifact.artifactId), ...guidanceOf(ctx, item)]);
}

function guidanceOf(ctx: Ctx, item: WorkRecord): (string | undefined)[] {
  return [...ctx.state.guidancePackets.values()].filter((packet) => packet.workItem === item.id).map((packet) => packet.artifactId);
}

function suggestion(ctx: Ctx, item: WorkRecord): string {
  const ids = [...inlineArtifacts(item).map(([kind, artifact]) => `${artifact.artifactId} (${kind})`), ...guidanceOf(ctx, item).map((id) => `${id} (GuidancePacket)`)];
  return ids.length > 0 ? `; ${item.id} has ${ids.join(', ')}` : '';
}
