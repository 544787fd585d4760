import { z } from 'zod';
import { defineMethod, withControl } from '../method.js';
import { claimModeSchema } from '../records.js';
import { isoTime, pathParam, rootParam } from './common.js';

export const pathHistory = defineMethod({
  name: 'fleet_path_history',
  summary: 'Who held a path, when, under which pattern and why, and how each hold ended (released, expired, transferred…), oldest first.',
  params: z.strictObject({ path: pathParam, root: rootParam }),
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
  }),
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});
