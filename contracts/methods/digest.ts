import { z } from 'zod';
import { forecastConflictSchema, writeSetSchema } from '../integration.js';
import { agentSchema, claimSchema } from '../records.js';
import { budgetUseSchema, digestSchema } from '../digest.js';
import { handoffSchema } from '../handoff.js';
import { defineMethod, withControl } from '../method.js';
import { messageSchema } from '../messages.js';
import { workItemSchema } from '../work.js';
import { handoffArtifactSchema } from '../work-artifact-record.js';
import { guidancePacketSchema } from '../work-protocol.js';
import { idParam } from './common.js';

export const digest = defineMethod({
  name: 'fleet_digest',
  summary:
    'The heartbeat digest since the last published one: per-agent progress, builds, blockers, stale agents, claims gained and lost (with reasons), handoffs, finished work and the control state, as JSON and Markdown. publish true (operator) makes it the new baseline and writes FLEET_HOME/digest.md; sinceSeq or sinceSeconds reads another window without moving it.',
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
    'Lost your context? One call returns everything to continue: your agent record, claims, work items (plans, rounds), unread messages, handoffs to or from you, latest decisions on your work, your write-set and forecast conflicts, and the control state; artifact: ID adds that artifact.',
  params: z.strictObject({ artifact: idParam.optional() }),
  result: withControl({
    agent: agentSchema,
    claims: z.array(claimSchema),
    work: z.array(workItemSchema),
    unread: z.array(messageSchema),
    unreadCount: z.number().int(),
    handoffsToMe: z.array(handoffSchema),
    handoffsFromMe: z.array(handoffSchema),
    decisions: z.array(workItemSchema),
    /** The rework and clarification rounds each of its work items has spent, of how many. */
    rounds: z.array(budgetUseSchema),
    /** The guidance packet it was last given with each of those items: the rules a resumed turn works under. */
    guidance: z.array(guidancePacketSchema),
    /** The paths your branch changed against the integration target, and the conflicts a merge of it would hit today (DESIGN §14). */
    writeSet: writeSetSchema.optional(),
    conflicts: z.array(forecastConflictSchema),
    artifact: handoffArtifactSchema.optional(),
  }),
  access: 'agent',
  mutates: false,
  mcpTool: true,
});
