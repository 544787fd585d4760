import { z } from 'zod';
import { buildRunSchema } from '../build.js';
import { defineMethod, withControl } from '../method.js';
import { boundedText, limits } from '../limits.js';
import { pathParam, repositoryParams } from './common.js';

export const buildConfigure = defineMethod({
  name: 'fleet_build_configure',
  summary: "Set a repository's build gate (operator or RTE): the command, the worktree to run it in (default the main worktree) and a timeout (default 30 minutes).",
  params: z.strictObject({
    ...repositoryParams,
    command: boundedText(limits.command).min(1),
    worktree: pathParam.optional(),
    timeoutSeconds: z.number().positive().max(24 * 3600).optional(),
  }),
  result: withControl({ scope: z.string(), command: z.string(), worktree: z.string(), timeoutSeconds: z.number() }),
  access: 'rte_or_operator',
  mutates: true,
  mcpTool: false,
});

export const buildVerify = defineMethod({
  name: 'fleet_build_verify',
  summary:
    'Run the repository\'s configured build at its worktree\'s HEAD (one run at a time; only the plane\'s own runs can be GREEN). Returns the run; with wait true, once it finished: green or red, exit code, commit, duration and log tail.',
  params: z.strictObject({ ...repositoryParams, wait: z.boolean().optional() }),
  result: withControl({ run: buildRunSchema }),
  access: 'anyone',
  mutates: true,
  mcpTool: true,
});
