import type { z } from 'zod';
import type { MethodSpec } from './method.js';
import { buildConfigure, buildVerify } from './methods/build.js';
import { controlGet, controlSet } from './methods/control.js';
import { integrateConfigure, integrateStatus, land } from './methods/train.js';
import { memoRead, memoWrite, rteLease } from './methods/coordination.js';
import { agentResume, digest } from './methods/digest.js';
import { pathHistory } from './methods/history.js';
import { integrationConflicts } from './methods/integration.js';
import { hookCheck, hookCheckCommand, hookSession, hookWaiting, hookWriter } from './methods/hooks.js';
import { agentHandoff, handoffRespond, inboxMethod, messageAck, messageSend } from './methods/messaging.js';
import { eventsSubscribe, planeHello, planeShutdown, planeStatus } from './methods/plane.js';
import { agentHeartbeat, agentJoin, agentLeave, roster } from './methods/roster.js';
import { tokenCreate, tokenList, tokenRevoke } from './methods/tokens.js';
import { workAdd, workArtifact, workConfigure, workList, workPull, workRemove, workUpdate } from './methods/work.js';
import { violationAck, violationsList, worktreeChanges } from './methods/violations.js';
import { checkPath, claimForceRelease, claimPath, claimRenew, claimTransfer, claimsList, releasePath } from './methods/territory.js';

/**
 * The one method table: the WebSocket endpoint dispatches from it, the CLI's `fleet call` and the
 * MCP tools are generated from it. Add a method here and every transport has it.
 */
export const methods = {
  fleet_agent_join: agentJoin,
  fleet_agent_heartbeat: agentHeartbeat,
  fleet_agent_leave: agentLeave,
  fleet_agent_resume: agentResume,
  fleet_roster: roster,
  fleet_claim_path: claimPath,
  fleet_claim_renew: claimRenew,
  fleet_release_path: releasePath,
  fleet_check_path: checkPath,
  fleet_claim_transfer: claimTransfer,
  fleet_claim_force_release: claimForceRelease,
  fleet_claims: claimsList,
  fleet_rte_lease: rteLease,
  fleet_agent_memo_write: memoWrite,
  fleet_memo_read: memoRead,
  fleet_control_get: controlGet,
  fleet_control_set: controlSet,
  fleet_agent_handoff: agentHandoff,
  fleet_handoff_respond: handoffRespond,
  fleet_inbox: inboxMethod,
  fleet_message_send: messageSend,
  fleet_message_ack: messageAck,
  fleet_work_add: workAdd,
  fleet_work_pull: workPull,
  fleet_work_update: workUpdate,
  fleet_work_list: workList,
  fleet_work_configure: workConfigure,
  fleet_work_remove: workRemove,
  fleet_work_artifact: workArtifact,
  fleet_build_configure: buildConfigure,
  fleet_build_verify: buildVerify,
  fleet_integrate_configure: integrateConfigure,
  fleet_integrate_status: integrateStatus,
  fleet_land: land,
  fleet_digest: digest,
  fleet_path_history: pathHistory,
  fleet_hook_check: hookCheck,
  fleet_hook_check_command: hookCheckCommand,
  fleet_hook_session: hookSession,
  fleet_hook_writer: hookWriter,
  fleet_hook_waiting: hookWaiting,
  fleet_plane_hello: planeHello,
  fleet_status: planeStatus,
  fleet_events_subscribe: eventsSubscribe,
  fleet_plane_shutdown: planeShutdown,
  fleet_violations: violationsList,
  fleet_violation_ack: violationAck,
  fleet_worktree_changes: worktreeChanges,
  fleet_conflicts: integrationConflicts,
  fleet_token_create: tokenCreate,
  fleet_token_list: tokenList,
  fleet_token_revoke: tokenRevoke,
} as const;

export type MethodTable = typeof methods;
export type MethodName = keyof MethodTable;
export type Params<N extends MethodName> = z.input<MethodTable[N]['params']>;
export type ParsedParams<N extends MethodName> = z.infer<MethodTable[N]['params']>;
export type Result<N extends MethodName> = z.infer<MethodTable[N]['result']>;
/** A result as the domain produces it; the dispatcher adds `control`. */
export type ResultBody<N extends MethodName> = Omit<Result<N>, 'control'>;

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(methods, name);
}

export const methodList: readonly MethodSpec<z.ZodType, z.ZodType>[] = Object.values(methods);
