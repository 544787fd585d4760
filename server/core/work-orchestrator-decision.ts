import type { Decision, WorkStatus } from '../../contracts/index.js';
import type { Ctx } from './context.js';
import type { WorkRecord } from './orchestration-records.js';
import { ORCHESTRATOR, seal } from './work-artifacts.js';

/**
 * The plane's own dispositions (seed 001: the orchestrator's): a failed verification sends the item
 * to rework, a spent budget escalates it. Each is an OrchestratorDecision as an RTE's is, with a
 * reason code, the artifacts it rests on and the status mutation it applies (invariant 8), so no
 * item changes course without a decision to read.
 */
export function orchestratorDecision(ctx: Ctx, item: WorkRecord, disposition: 'rework' | 'escalate', reasonCode: string, refs: readonly (string | undefined)[], to: WorkStatus): Decision {
  const cited = [...new Set(refs.filter((ref): ref is string => ref !== undefined))];
  return seal(ctx, 'OrchestratorDecision', { disposition, reasonCode, refs: cited, statusMutation: { from: item.status, to } }, { workItem: item.id, producer: ORCHESTRATOR, sourceRefs: cited });
}
