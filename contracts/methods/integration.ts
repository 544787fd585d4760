import { z } from 'zod';
import { boundedList, limits } from '../limits.js';
import { forecastConflictSchema, writeSetSchema } from '../integration.js';
import { defineMethod, withControl } from '../method.js';
import { callsignSchema } from '../records.js';
import { pathParam } from './common.js';

export const integrationConflicts = defineMethod({
  name: 'fleet_conflicts',
  summary:
    "The conflict forecast (DESIGN §14): live agents' write-sets (paths their branch changed against the integration target, committed and uncommitted) and the conflicts a merge of their work would hit today, with another live branch or the target. With callsign (or worktree: the agent whose write-set is that worktree's, as a hook asks): only that agent's; with paths (repository-relative): only conflicts touching them.",
  params: z.strictObject({
    callsign: callsignSchema.optional(),
    worktree: pathParam.optional().describe('Absolute path of the worktree root whose agent is meant'),
    paths: boundedList(pathParam, limits.ids).optional(),
  }),
  result: withControl({ writeSets: z.array(writeSetSchema), conflicts: z.array(forecastConflictSchema) }),
  // Hooks ask it after a tool call, and hooks hold only the plane token.
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});
