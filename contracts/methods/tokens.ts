import { z } from 'zod';
import { defineMethod, withControl } from '../method.js';
import { callsignSchema, roleSchema } from '../records.js';
import { idParam } from './common.js';

/** A service token's role: any agent role, never the person's (DESIGN §13: a service token never acts as operator). */
export const serviceRoleSchema = roleSchema.exclude(['operator']);

/** What `fleet token list` shows of a token: never the token, never its hash. */
export const serviceTokenViewSchema = z.object({
  id: z.string(),
  callsign: callsignSchema,
  role: serviceRoleSchema,
  createdAt: z.string(),
  createdBy: z.string(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
});

export type ServiceTokenView = z.infer<typeof serviceTokenViewSchema>;

/** Longest life a service token may be given: a year (tokens without --ttl live until revoked). */
export const MAX_SERVICE_TOKEN_TTL_SECONDS = 366 * 24 * 3600;

export const tokenCreate = defineMethod({
  name: 'fleet_token_create',
  summary:
    'The operator creates a service token for one remote agent (DESIGN §13): it acts only as that callsign, with that role, on the plane\'s --listen endpoint and its /mcp. The token is returned once and stored hashed; without ttlSeconds it lives until revoked.',
  params: z.strictObject({
    callsign: callsignSchema,
    role: serviceRoleSchema.default('worker'),
    ttlSeconds: z.number().int().positive().max(MAX_SERVICE_TOKEN_TTL_SECONDS).optional(),
  }),
  result: withControl({ token: z.string(), info: serviceTokenViewSchema }),
  access: 'operator',
  mutates: true,
  mcpTool: false,
});

export const tokenList = defineMethod({
  name: 'fleet_token_list',
  summary: 'The operator lists the service tokens (id, callsign, role, expiry, revocation): never the tokens themselves.',
  params: z.strictObject({}),
  result: withControl({ tokens: z.array(serviceTokenViewSchema) }),
  access: 'operator',
  mutates: false,
  mcpTool: false,
});

export const tokenRevoke = defineMethod({
  name: 'fleet_token_revoke',
  summary: 'The operator revokes service tokens, by id or every token of a callsign: from that moment their connections and MCP sessions are refused on their next call.',
  params: z
    .strictObject({ id: idParam.optional(), callsign: callsignSchema.optional() })
    .refine((p) => (p.id === undefined) !== (p.callsign === undefined), { message: 'pass either id (one token) or callsign (all of its tokens)' }),
  result: withControl({ revoked: z.array(z.string()) }),
  access: 'operator',
  mutates: true,
  mcpTool: false,
});
