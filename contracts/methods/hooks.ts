import { z } from 'zod';
import { defineMethod, withControl } from '../method.js';
import { boundedList, boundedText, limits } from '../limits.js';
import { agentStatusSchema, callsignSchema } from '../records.js';
import { pathParam, pathVerdictSchema, rootParam } from './common.js';

/**
 * The write gate of the hooks (git pre-commit, Claude Code PreToolUse). A hook runs as the local
 * person holding the plane token, not as the agent, so it names the agent instead of joining as
 * it: joining would revive an agent that expired, which must stay refused.
 */
export const hookCheck = defineMethod({
  name: 'fleet_hook_check',
  summary:
    'The check the hooks call before a write or a commit: the same check as fleet_check_path, for the agent named by callsign (FLEET_AS), else the live agent that registered the worktree containing `worktree` at join, else for a person (unless agentOnly: then nobody found means refused). An agent that left or expired holds nothing and is refused. With override (the operator\'s FLEET_OVERRIDE reason) refused paths are let through and each is recorded as an override.used event.',
  params: z.strictObject({
    paths: boundedList(pathParam, limits.paths).min(1),
    root: rootParam,
    callsign: callsignSchema.optional().describe('The agent writing (FLEET_AS); without it the agent is found by worktree'),
    worktree: pathParam.optional().describe('Absolute path the write happens under (a file, or the worktree root): the live agent whose registered worktree contains it is the writer'),
    agentOnly: z.boolean().optional().describe('The writer is certainly an agent (a Claude Code session): when no agent is found, every path is refused'),
    hook: boundedText(limits.label).min(1).describe('Which hook asks, e.g. git-pre-commit or claude-pre-tool-use (recorded with an override)'),
    override: boundedText(limits.reason).min(1).optional().describe('The operator\'s escape hatch: the reason, recorded once per refused path'),
  }),
  result: withControl({
    agent: z.object({ callsign: callsignSchema, status: agentStatusSchema }).nullable(),
    allowed: z.boolean(),
    overridden: z.boolean(),
    results: z.array(pathVerdictSchema),
  }),
  access: 'operator',
  mutates: true,
  mcpTool: false,
});
