import { z } from 'zod';
import { agentSchema, callsignSchema, claimExpirySchema, claimModeSchema, controlSchema } from './records.js';

/**
 * FLEET_HOME/ledger.json: a read-only cache of the roster and the ownership map for agents that
 * can only read files. The plane rewrites it atomically after changes; it is never an input.
 */
export const ledgerOwnerSchema = z.object({
  claimId: z.string(),
  holder: callsignSchema,
  mode: claimModeSchema,
  fence: z.number().int(),
  /** null while the holder's registered process keeps the claim (see expiresWith). */
  expiresAt: z.iso.datetime().nullable(),
  expiresWith: claimExpirySchema,
});

export const ledgerSchema = z.object({
  schemaVersion: z.literal(1),
  generatedAt: z.iso.datetime(),
  seq: z.number().int(),
  control: controlSchema,
  agents: z.array(agentSchema),
  /** scope (the repository's portable id: fleet.scope or normalized origin URL) → pattern → owners */
  ownership: z.record(z.string(), z.record(z.string(), z.array(ledgerOwnerSchema))),
});
export type Ledger = z.infer<typeof ledgerSchema>;
