import { z } from 'zod';
import { defineMethod, withControl } from '../method.js';
import { boundedList, boundedText, limits } from '../limits.js';
import { integrationConfigSchema, releaseAtSchema, trainEntrySchema } from '../train.js';
import { workStatusSchema } from '../work.js';
import { idParam, repositoryParams } from './common.js';

const refName = boundedText(limits.line).min(1);

export const integrateConfigure = defineMethod({
  name: 'fleet_integrate_configure',
  summary:
    "Set a repository's integration (operator or RTE): target branch (default: the repository's default branch), remote and push (never forced), batchSize, buildCommand (default: the build gate's), timeoutSeconds, landOnAccept (every accept queues the item), releaseAt (claims of work on its own branch end at complete, or once it lands: the default). What is not given keeps its value.",
  params: z.strictObject({
    ...repositoryParams,
    target: refName.optional(),
    remote: refName.optional(),
    push: z.boolean().optional(),
    batchSize: z.number().int().min(1).max(64).optional(),
    buildCommand: boundedText(limits.command).min(1).optional(),
    timeoutSeconds: z.number().positive().max(24 * 3600).optional(),
    landOnAccept: z.boolean().optional(),
    releaseAt: releaseAtSchema.optional(),
  }),
  result: withControl({ config: integrationConfigSchema }),
  access: 'rte_or_operator',
  mutates: true,
  mcpTool: false,
});

export const land = defineMethod({
  name: 'fleet_land',
  summary:
    "Queue accepted work items' branches (ids, in order), or a branch by name, on the train: each pinned at the commit it was completed and verified at, merged onto the target in batches, built, and landed only if GREEN. done true: mark the items landed by hand (merged outside the train), releasing the claims held for them. RTE or operator.",
  params: z.strictObject({
    ...repositoryParams,
    ids: boundedList(idParam, limits.refs).min(1).optional(),
    branch: refName.optional(),
    done: z.boolean().optional(),
    commit: refName.optional().describe('With done: the commit on the target that landed it'),
  }),
  result: withControl({ items: z.array(z.object({ id: z.string(), status: workStatusSchema })), entries: z.array(trainEntrySchema) }),
  access: 'rte_or_operator',
  mutates: true,
  mcpTool: false,
});

export const integrateStatus = defineMethod({
  name: 'fleet_integrate_status',
  summary: "A repository's train: its settings, the batch being built, items queued, landed and sent back (with the reason and log tail).",
  params: z.strictObject({ ...repositoryParams }),
  result: withControl({
    config: integrationConfigSchema.omit({ configuredBy: true }),
    batch: z
      .object({
        itemIds: z.array(z.string()),
        base: z.string(),
        tip: z.string().optional().describe('Set once the batch built GREEN: the commit the target moves to'),
        since: z.iso.datetime(),
        logTail: z.string().optional().describe('The running build\'s output so far (its tail)'),
      })
      .optional(),
    entries: z.array(trainEntrySchema),
  }),
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});
