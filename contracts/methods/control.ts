import { z } from 'zod';
import { defineMethod, withControl } from '../method.js';
import { boundedText, limits } from '../limits.js';
import { controlSchema, controlStateSchema } from '../records.js';

export const controlGet = defineMethod({
  name: 'fleet_control_get',
  summary: 'Read the fleet switch: run (work normally), drain (finish what you hold, pull no new work), pause (start nothing new: no claims, no pulls), stop (wind down and leave now).',
  params: z.strictObject({}),
  result: withControl({ ...controlSchema.shape }),
  access: 'anyone',
  mutates: false,
  mcpTool: true,
});

export const controlSet = defineMethod({
  name: 'fleet_control_set',
  summary:
    'Move the fleet switch. Any agent may move it toward safety (run → drain → pause → stop); only the operator moves it back toward run. The reason is recorded with who set it.',
  params: z.strictObject({ state: controlStateSchema, reason: boundedText(limits.reason).optional() }),
  result: withControl({ ...controlSchema.shape }),
  access: 'anyone',
  mutates: true,
  mcpTool: true,
});
