import { z } from 'zod';
import { defineMethod, withControl } from '../method.js';
import { agentSchema, callsignSchema, reportedStatusSchema, roleSchema, tierSchema } from '../records.js';
import { boundedText, limits } from '../limits.js';
import { idParam, noParams, pathParam } from './common.js';
import { pageParams, pageResult } from './paging.js';

export const agentJoin = defineMethod({
  name: 'fleet_agent_join',
  summary:
    'Join the roster under a callsign before anything else. Returns your agentId and a sessionToken: joining again with the token continues the same agent with the same claims; a live callsign is refused to anyone without it.',
  params: z.strictObject({
    callsign: callsignSchema,
    runtime: boundedText(limits.label).min(1).describe('What runs the agent: claude-code, codex, copilot, antigravity, script…'),
    role: roleSchema.optional().describe('worker (default), builder, verifier or rte; operator only for a person'),
    worktree: pathParam.optional().describe('Absolute path of the worktree the agent works in'),
    pid: z.number().int().positive().optional().describe('Process id the stop backstop may signal if the agent ignores a stop'),
    tier: tierSchema.optional(),
    sessionToken: idParam.optional(),
  }),
  result: withControl({ agentId: z.string(), callsign: callsignSchema, sessionToken: z.string(), rejoined: z.boolean() }),
  access: 'anyone',
  mutates: true,
  mcpTool: true,
});

export const agentHeartbeat = defineMethod({
  name: 'fleet_agent_heartbeat',
  summary:
    'Report that you are alive and what you are doing (status, note, task). Any call counts as a heartbeat; when otherwise silent, call this at least every minute or your claims lapse after two agent TTLs.',
  params: z.strictObject({
    status: reportedStatusSchema.optional(),
    note: boundedText(limits.reason).optional(),
    task: boundedText(limits.line).optional(),
  }),
  result: withControl({ agent: agentSchema }),
  access: 'agent',
  mutates: true,
  mcpTool: true,
});

export const agentLeave = defineMethod({
  name: 'fleet_agent_leave',
  summary: 'Leave the roster when you are done: your claims and leases are released and your callsign becomes free.',
  params: noParams,
  result: withControl({ left: z.boolean(), released: z.array(z.string()) }),
  access: 'agent',
  mutates: true,
  mcpTool: true,
});

export const roster = defineMethod({
  name: 'fleet_roster',
  summary: 'List the agents on the roster with their role, status (active, idle, blocked, unknown…), last heartbeat, task and claim count.',
  params: z.strictObject({ includeGone: z.boolean().optional().describe('Also list agents that left or expired'), ...pageParams }),
  result: withControl({ agents: z.array(agentSchema), ...pageResult(['agents']) }),
  access: 'anyone',
  mutates: false,
  mcpTool: true,
});
