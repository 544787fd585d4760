import { buildConfigure, buildVerify } from './build.js';
import { controlGet, controlSet, memoRead, memoWrite, rteLease } from './coordination.js';
import { agentResume, digestHandler } from './digest.js';
import type { HandlerTable } from './handler.js';
import { pathHistory } from './history.js';
import { agentHandoff, handoffRespond, inboxHandler, messageAck, messageSend } from './messaging.js';
import { eventsSubscribe, planeHello, planeShutdown, planeStatus } from './plane.js';
import { agentHeartbeat, agentJoin, agentLeave, roster } from './roster.js';
import { workAdd, workList, workPull, workUpdate } from './work.js';
import { checkPath, claimForceRelease, claimPath, claimRenew, claimsList, claimTransfer, releasePath } from './territory.js';

export const handlers: HandlerTable = {
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
  fleet_inbox: inboxHandler,
  fleet_message_send: messageSend,
  fleet_message_ack: messageAck,
  fleet_work_add: workAdd,
  fleet_work_pull: workPull,
  fleet_work_update: workUpdate,
  fleet_work_list: workList,
  fleet_build_configure: buildConfigure,
  fleet_build_verify: buildVerify,
  fleet_digest: digestHandler,
  fleet_path_history: pathHistory,
  fleet_plane_hello: planeHello,
  fleet_status: planeStatus,
  fleet_events_subscribe: eventsSubscribe,
  fleet_plane_shutdown: planeShutdown,
};
