import { z } from 'zod';
import { forecastConflictSchema, MAX_TOUCHED_PATH_CONFLICTS } from '../integration.js';
import { boundedText, limits } from '../limits.js';
import { defineMethod, withControl } from '../method.js';
import { callsignSchema } from '../records.js';
import { violationSchema } from '../violations.js';
import { idsParam, pathParam } from './common.js';

/** Bounds the lists these methods return, so no reply approaches the payload limit. */
export const MAX_VIOLATIONS_LISTED = 1000;
export const MAX_WORKTREE_CHANGES = 1000;
export const MAX_UNATTRIBUTED_ELSEWHERE = 100;

export const violationsList = defineMethod({
  name: 'fleet_violations',
  summary: 'The territory violations not yet acknowledged (writes seen in paths another agent holds exclusively), newest first, with their total.',
  params: z.strictObject({ limit: z.number().int().min(1).max(MAX_VIOLATIONS_LISTED).optional() }),
  result: withControl({ total: z.number().int(), violations: z.array(violationSchema) }),
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});

export const violationAck = defineMethod({
  name: 'fleet_violation_ack',
  summary: 'The operator acknowledges territory violations, by id or all of them: they leave the unacknowledged list (the event log keeps them).',
  params: z
    .strictObject({
      ids: idsParam.min(1).optional(),
      all: z.literal(true).optional(),
    })
    .refine((p) => (p.ids === undefined) !== (p.all === undefined), { message: 'pass either ids (the violations to acknowledge) or all: true' }),
  result: withControl({ acknowledged: z.array(z.string()) }),
  access: 'operator',
  mutates: true,
  mcpTool: false,
});

export const worktreeChanges = defineMethod({
  name: 'fleet_worktree_changes',
  summary:
    'What changed in a watched worktree (one a live agent registered at join) since a mark. Without since: returns a mark to ask with later (call it before a tool runs); with writer, changes until the call with that mark are attributed to that agent. With since: the paths changed after the mark (ignored paths and .git/ left out; viaGit when a checkout, merge or other index/HEAD move wrote them), a new mark, and the forecast conflicts of the worktree\'s agent among those paths.',
  params: z.strictObject({
    worktree: pathParam.describe('Absolute path of (a folder in) the worktree'),
    since: z.number().int().min(0).optional().describe('A mark an earlier call returned'),
    writer: callsignSchema.optional().describe('The agent about to write there (a hook names its session\'s agent)'),
    sessionId: boundedText(limits.id).min(1).optional().describe('Without writer: a hook payload\'s session_id; the agent its SessionStart bound (fleet_hook_session) is the writer'),
    source: boundedText(limits.label).min(1).optional().describe('With writer (or sessionId): the tool it writes with (a hook names its tool), recorded as the source of a violation it causes'),
  }),
  result: withControl({
    mark: z.number().int(),
    changes: z.array(z.object({ path: z.string(), viaGit: z.boolean().optional() })),
    /** Older changes than the plane keeps were asked for, or more than fit: treat every path as changed. */
    truncated: z.boolean(),
    /**
     * With since, when the mark named a writer: writes the watcher saw in other worktrees of the same
     * repository while that writer's call was in flight, into paths another agent holds exclusively,
     * recorded as by `unknown` (the caller's call may have made them; so may something else).
     */
    elsewhere: z.array(z.object({ worktree: z.string(), path: z.string(), holder: z.string() })).max(MAX_UNATTRIBUTED_ELSEWHERE).optional(),
    /**
     * With since: the conflict forecast (DESIGN §14) of the worktree's agent among the paths that
     * changed (viaGit left out), so the hook that asks what a call changed notes the forecast in the
     * same round trip. Absent when there is none.
     */
    conflicts: z.array(forecastConflictSchema).max(MAX_TOUCHED_PATH_CONFLICTS).optional(),
  }),
  // Hooks ask it around a tool call, and hooks hold only the plane token.
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});
