import { z } from 'zod';
import { defineMethod, withControl } from '../method.js';
import { boundedList, boundedText, limits } from '../limits.js';
import { callsignSchema, claimModeSchema, claimSchema } from '../records.js';
import { grantedClaimSchema, idsParam, idParam, isoTime, pathParam, pathVerdictSchema, patternParam, repositoryParams } from './common.js';
import { pageParams, pageResult } from './paging.js';

const patternsParam = boundedList(patternParam, limits.patterns)
  .min(1)
  .describe('Glob patterns relative to the repository root (or absolute inside it): *, ?, [..], {a,b}, **. A trailing / or an existing directory claims its whole subtree.');

const conflictSchema = z.object({
  pattern: z.string(),
  holder: callsignSchema,
  heldPattern: z.string(),
  mode: claimModeSchema,
  expiresAt: isoTime,
});

export const claimPath = defineMethod({
  name: 'fleet_claim_path',
  summary:
    'Claim paths before writing: all patterns are granted together or none. Exclusive (default) keeps others out; shared coexists with shared. Refused, you get granted:false with refusedBy "conflict" (each holder, pattern and expiry: work elsewhere, wait with waitSeconds, or ask the holder) or "control" (paused or stopped). Each claim carries a fence that proves it is current.',
  params: z.strictObject({
    patterns: patternsParam,
    mode: claimModeSchema.optional(),
    ttlSeconds: z.number().positive().max(7 * 24 * 3600).optional().describe('With it the claim lapses unless renewed; without it, it lives while you heartbeat'),
    waitSeconds: z.number().min(0).max(3600).optional().describe('Queue behind the holders up to this long; the wait ends if this connection closes (ask again where you re-attach)'),
    reason: boundedText(limits.reason).optional(),
    requestId: idParam.optional().describe('Retrying with the same requestId returns the same grant'),
    ...repositoryParams,
  }),
  result: withControl({
    granted: z.boolean(),
    refusedBy: z.enum(['conflict', 'control']).optional(),
    claims: z.array(grantedClaimSchema),
    conflicts: z.array(conflictSchema),
  }),
  access: 'agent',
  mutates: true,
  mcpTool: true,
});

export const claimRenew = defineMethod({
  name: 'fleet_claim_renew',
  summary: 'Extend claims made with a ttlSeconds (all of yours, or the given ids). Presenting a stale fence is refused and changes nothing.',
  params: z.strictObject({
    claimIds: idsParam.optional(),
    ttlSeconds: z.number().positive().max(7 * 24 * 3600).optional(),
    fence: z.number().int().positive().optional(),
  }),
  result: withControl({ renewed: z.array(z.object({ id: z.string(), expiresAt: isoTime })) }),
  access: 'agent',
  mutates: true,
  mcpTool: true,
});

export const releasePath = defineMethod({
  name: 'fleet_release_path',
  summary: 'Release your claims, by id or by the pattern you claimed, as soon as you are done with the files. Releasing works in every control state.',
  params: z.strictObject({
    claimIds: idsParam.optional(),
    patterns: boundedList(patternParam, limits.patterns).optional(),
    fence: z.number().int().positive().optional(),
    ...repositoryParams,
  }),
  result: withControl({ released: z.array(z.string()) }),
  access: 'agent',
  mutates: true,
  mcpTool: true,
});

export const checkPath = defineMethod({
  name: 'fleet_check_path',
  summary:
    'May you write these paths now, and who holds them? An agent may write what it holds a live claim on (exclusive, or shared with no exclusive holder); a person, anything no agent holds exclusively. fence also checks that your claim is current.',
  params: z.strictObject({ paths: boundedList(pathParam, limits.paths).min(1), ...repositoryParams, fence: z.number().int().positive().optional() }),
  result: withControl({ allowed: z.boolean(), results: z.array(pathVerdictSchema) }),
  access: 'anyone',
  mutates: false,
  mcpTool: true,
});

export const claimTransfer = defineMethod({
  name: 'fleet_claim_transfer',
  summary: 'Atomically move claims to another agent (used by handoffs): the old claims end with reason "transferred" and the recipient gets new ones with new fences, with no gap in between.',
  params: z.strictObject({ claimIds: idsParam.min(1), to: callsignSchema }),
  result: withControl({ claims: z.array(grantedClaimSchema) }),
  access: 'anyone',
  mutates: true,
  mcpTool: false,
});

export const claimForceRelease = defineMethod({
  name: 'fleet_claim_force_release',
  summary: "Release another agent's claims (operator or RTE), with a reason that is recorded.",
  params: z.strictObject({ claimIds: idsParam.min(1), reason: boundedText(limits.reason).min(1) }),
  result: withControl({ released: z.array(z.string()) }),
  access: 'rte_or_operator',
  mutates: true,
  mcpTool: false,
});

export const claimsList = defineMethod({
  name: 'fleet_claims',
  summary: 'List live claims, optionally only one repository\'s or one agent\'s.',
  params: z.strictObject({ ...repositoryParams, holder: callsignSchema.optional(), ...pageParams }),
  result: withControl({ claims: z.array(claimSchema), ...pageResult(['claims']) }),
  access: 'anyone',
  mutates: false,
  mcpTool: false,
});
