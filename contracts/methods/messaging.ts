import { z } from 'zod';
import { handoffSchema, sentHandoffEnvelopeSchema } from '../handoff.js';
import { boundedList, boundedText, limits } from '../limits.js';
import { defineMethod, withControl } from '../method.js';
import { messageSchema, messageStatusSchema, messageTypeSchema, prioritySchema, recipientSchema } from '../messages.js';
import { grantedClaimSchema, idParam, idsParam } from './common.js';
import { pageParams, pageResult } from './paging.js';

/** Messages (and handoffs) in one inbox reply when the caller names no `limit`: a model reads them all. */
export const INBOX_PAGE_SIZE = 50;

export const agentHandoff = defineMethod({
  name: 'fleet_agent_handoff',
  summary:
    'Hand your work to an agent or a role before you stop or your context runs out: summary, next steps, open questions, and the claim ids to pass on. The claims wait in escrow until the recipient accepts (they move with new fences), declines or lets it expire (they come back to you). Hand off to your own callsign to continue in a new session.',
  params: sentHandoffEnvelopeSchema.omit({ from: true, id: true, fingerprint: true, trust: true }).extend({
    ttlSeconds: z.number().positive().max(7 * 24 * 3600).optional().describe('How long the recipient has to accept (default 30 minutes)'),
  }).strict(),
  result: withControl({ handoff: handoffSchema }),
  access: 'agent',
  mutates: true,
  mcpTool: true,
});

export const handoffRespond = defineMethod({
  name: 'fleet_handoff_respond',
  summary: 'Accept or decline a handoff addressed to you (see fleet_inbox). Accepting gives you its claims with new fences, and its work item; works even while the fleet is paused.',
  params: z.strictObject({ handoffId: idParam, accept: z.boolean(), reason: boundedText(limits.paragraph).optional() }),
  result: withControl({
    handoff: handoffSchema,
    claims: z.array(grantedClaimSchema),
  }),
  access: 'agent',
  mutates: true,
  mcpTool: true,
});

export const inboxMethod = defineMethod({
  name: 'fleet_inbox',
  summary:
    'Your messages (addressed to you, your role, or mentioning @you), newest first, with the unread count, and the handoffs waiting for you, oldest first. Check it between steps.',
  params: z.strictObject({
    unreadOnly: z.boolean().optional(),
    cursor: pageParams.cursor,
    limit: pageParams.limit.describe(`Most messages (and handoffs) in this reply (default ${INBOX_PAGE_SIZE})`),
  }),
  result: withControl({ messages: z.array(messageSchema), unread: z.number().int(), handoffs: z.array(handoffSchema), ...pageResult(['messages', 'handoffs']) }),
  access: 'agent',
  mutates: false,
  mcpTool: true,
});

export const messageSend = defineMethod({
  name: 'fleet_message_send',
  summary:
    'Message an agent ({"callsign": "ATLAS"}) or a role ({"role": "rte"}); @CALLSIGN in the body notifies that agent too. A REQUEST or BLOCKER naming a workItem blocks it until a RESPONSE or RESOLUTION refers to it (refs) or it is acknowledged PROCESSED.',
  params: z.strictObject({
    to: recipientSchema,
    type: messageTypeSchema,
    priority: prioritySchema.optional(),
    subject: boundedText(limits.line).optional(),
    body: boundedText(limits.body).min(1),
    refs: boundedList(idParam, limits.refs).optional(),
    workItem: idParam.optional(),
  }),
  result: withControl({ message: messageSchema }),
  access: 'anyone',
  mutates: true,
  mcpTool: true,
});

export const messageAck = defineMethod({
  name: 'fleet_message_ack',
  summary: 'Move messages addressed to you along PENDING → ACKNOWLEDGED → PROCESSED (or BLOCKED). PROCESSED on a blocking request lifts the block on its work item.',
  params: z.strictObject({ messageIds: idsParam.min(1), status: messageStatusSchema.exclude(['PENDING']) }),
  result: withControl({ messages: z.array(messageSchema) }),
  access: 'agent',
  mutates: true,
  mcpTool: true,
});
