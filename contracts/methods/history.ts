import { z } from 'zod';
import { defineMethod, withControl } from '../method.js';
import { claimModeSchema } from '../records.js';
import { violationSchema } from '../violations.js';
import { isoTime, pathParam, repositoryParams } from './common.js';
import { pageParams, pageResult } from './paging.js';

export const pathHistory = defineMethod({
  name: 'fleet_path_history',
  summary: 'Who held a path, when, under which pattern and why, and how each hold ended (released, expired, transferred…), oldest first; the territory violations seen in it, and the merge conflicts forecast in it. A long history comes in pages (nextCursor).',
  params: z.strictObject({ path: pathParam, ...repositoryParams, ...pageParams }),
  result: withControl({
    path: z.string(),
    entries: z.array(
      z.object({
        claimId: z.string(),
        holder: z.string(),
        pattern: z.string(),
        mode: claimModeSchema,
        fence: z.number().int(),
        reason: z.string().optional(),
        grantedAt: isoTime,
        endedAt: isoTime.optional(),
        ended: z.string().optional(),
        note: z.string().optional(),
      }),
    ),
    /** Writes seen in the path while another agent held it exclusively (DESIGN §11), oldest first. */
    violations: z.array(violationSchema.omit({ scope: true, path: true }).extend({ acknowledged: z.boolean() })),
    /** Merge conflicts forecast in the path, found and cleared, between live branches or one and the target (DESIGN §14), oldest first. */
    forecasts: z.array(z.object({ status: z.enum(['conflict', 'cleared']), agent: z.string(), branch: z.string().optional(), other: z.string(), otherBranch: z.string(), at: isoTime })),
    ...pageResult(['entries', 'violations', 'forecasts']),
  }),
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});
