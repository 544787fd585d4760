import { z } from 'zod';
import { agentSchema, claimSchema } from '../records.js';
import { digestSchema } from '../digest.js';
import { handoffSchema } from '../handoff.js';
import { defineMethod, withControl } from '../method.js';
import { messageSchema } from '../messages.js';
import { workItemSchema } from '../work.js';

export const digest = defineMethod({
  name: 'fleet_digest',
  summary:
    'The heartbeat digest: per-agent progress, build status, blockers, stale agents, claims acquired and released (with the reason for each reclaim) since the last digest, handoffs, work completed and the control state. As JSON and Markdown. publish true (operator) records it as the new baseline and writes FLEET_HOME/digest.md. sinceSeq or sinceSeconds reads any other window (a morning report) without moving the baseline.',
  params: z.strictObject({
    publish: z.boolean().optional(),
    /** The window starts at this event (fleet digest --since 1234). */
    sinceSeq: z.number().int().positive().optional(),
    /** The window is the last this many seconds of plane time (fleet digest --since 8h). */
    sinceSeconds: z.number().positive().max(366 * 24 * 3600).optional(),
  }),
  result: withControl({ digest: digestSchema, markdown: z.string() }),
  access: 'anyone',
  mutates: true,
  mcpTool: true,
});

export const agentResume = defineMethod({
  name: 'fleet_agent_resume',
  summary:
    'Lost your context? One call returns everything to continue: your agent record, your claims, your current work items, unread messages, handoffs waiting for you or sent by you, the latest decisions on your work, and the control state.',
  params: z.strictObject({}),
  result: withControl({
    agent: agentSchema,
    claims: z.array(claimSchema),
    work: z.array(workItemSchema),
    unread: z.array(messageSchema),
    unreadCount: z.number().int(),
    handoffsToMe: z.array(handoffSchema),
    handoffsFromMe: z.array(handoffSchema),
    decisions: z.array(workItemSchema),
  }),
  access: 'agent',
  mutates: false,
  mcpTool: true,
});
