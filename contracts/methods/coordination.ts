import { z } from 'zod';
import { defineMethod, withControl } from '../method.js';
import { boundedJson, boundedText, limits } from '../limits.js';
import { memoSchema } from '../records.js';
import { isoTime } from './common.js';

const leaseNameSchema = boundedText(limits.line).regex(/^coordination\/[A-Za-z0-9._/-]{1,120}$/, 'lease names live under "coordination/", e.g. coordination/rte-lock or coordination/rte-lock/codex');

export const rteLease = defineMethod({
  name: 'fleet_rte_lease',
  summary:
    'Acquire, renew or release a named lease (default coordination/rte-lock, the fleet RTE\'s; coordination/rte-lock/<runtime> for a runtime\'s). One holder at a time: others get held:false with the holder and expiry. Renew before expiresAt.',
  params: z.strictObject({
    action: z.enum(['acquire', 'renew', 'release']),
    name: leaseNameSchema.optional(),
    ttlSeconds: z.number().positive().max(24 * 3600).optional(),
    fence: z.number().int().positive().optional(),
  }),
  result: withControl({ name: z.string(), held: z.boolean(), holder: z.string().nullable(), expiresAt: isoTime.nullable(), fence: z.number().int() }),
  access: 'agent',
  mutates: true,
  mcpTool: true,
});

const memoKeySchema = boundedText(limits.line).regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, 'memo keys are "/"-separated words, e.g. coordination/plan or notes/ATLAS');

export const memoWrite = defineMethod({
  name: 'fleet_agent_memo_write',
  summary:
    'Write a shared memo (any JSON value) under a key such as coordination/plan. Pass expectedVersion for compare-and-set: if someone wrote it since, you get written:false and the current memo, nothing changes. expectedVersion 0 means "only if it does not exist".',
  params: z.strictObject({ key: memoKeySchema, value: boundedJson(limits.json), expectedVersion: z.number().int().min(0).optional() }),
  result: withControl({ written: z.boolean(), memo: memoSchema.nullable() }),
  access: 'agent',
  mutates: true,
  mcpTool: true,
});

export const memoRead = defineMethod({
  name: 'fleet_memo_read',
  summary: 'Read one memo by key, or every memo under a prefix (e.g. coordination/).',
  params: z.strictObject({ key: memoKeySchema.optional(), prefix: boundedText(limits.line).optional() }),
  result: withControl({ memos: z.array(memoSchema) }),
  access: 'anyone',
  mutates: false,
  mcpTool: true,
});
