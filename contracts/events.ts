import { z } from 'zod';
import { claimModeSchema, controlStateSchema, reportedStatusSchema, roleSchema, tierSchema } from './records.js';

/**
 * Every change to the plane's state is one of these events, appended to the log before it is
 * acknowledged. Replaying the log rebuilds the state; time-based decisions (expiry, termination)
 * are recorded as events too, so a replay never re-decides anything.
 */
const base = { seq: z.number().int().positive(), at: z.number(), by: z.string().optional() };

const claimReleaseReasonSchema = z.enum([
  'released',
  'expired',
  'agent_left',
  'transferred',
  'force_released',
]);
export type ClaimReleaseReason = z.infer<typeof claimReleaseReasonSchema>;

export const fleetEventSchema = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('plane.started'), pid: z.number().int(), version: z.string() }),
  z.object({
    ...base,
    type: z.literal('agent.joined'),
    agentId: z.string(),
    callsign: z.string(),
    runtime: z.string(),
    role: roleSchema,
    tier: tierSchema,
    worktree: z.string().optional(),
    pid: z.number().int().optional(),
    pidStart: z.string().optional(),
    tokenHash: z.string(),
  }),
  z.object({
    ...base,
    type: z.literal('agent.rejoined'),
    agentId: z.string(),
    worktree: z.string().optional(),
    pid: z.number().int().optional(),
    pidStart: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('agent.heartbeat'),
    agentId: z.string(),
    status: reportedStatusSchema.optional(),
    note: z.string().optional(),
    task: z.string().optional(),
  }),
  z.object({ ...base, type: z.literal('agent.unknown'), agentId: z.string() }),
  z.object({ ...base, type: z.literal('agent.left'), agentId: z.string() }),
  z.object({ ...base, type: z.literal('agent.expired'), agentId: z.string() }),
  z.object({
    ...base,
    type: z.literal('agent.terminated'),
    agentId: z.string(),
    pid: z.number().int(),
    signal: z.enum(['SIGTERM', 'SIGKILL']),
  }),
  z.object({
    ...base,
    type: z.literal('claim.granted'),
    claimId: z.string(),
    agentId: z.string(),
    scope: z.string(),
    pattern: z.string(),
    mode: claimModeSchema,
    fence: z.number().int().positive(),
    ttlMs: z.number().positive().optional(),
    expiresAt: z.number().optional(),
    reason: z.string().optional(),
    requestId: z.string().optional(),
    transferredFrom: z.string().optional(),
  }),
  z.object({ ...base, type: z.literal('claim.renewed'), claimId: z.string(), expiresAt: z.number() }),
  z.object({
    ...base,
    type: z.literal('claim.released'),
    claimId: z.string(),
    reason: claimReleaseReasonSchema,
    note: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('lease.acquired'),
    name: z.string(),
    agentId: z.string(),
    fence: z.number().int().positive(),
    expiresAt: z.number(),
  }),
  z.object({ ...base, type: z.literal('lease.renewed'), name: z.string(), expiresAt: z.number() }),
  z.object({
    ...base,
    type: z.literal('lease.released'),
    name: z.string(),
    reason: z.enum(['released', 'expired', 'agent_left']),
  }),
  z.object({ ...base, type: z.literal('memo.written'), key: z.string(), value: z.unknown(), version: z.number().int() }),
  z.object({ ...base, type: z.literal('control.set'), state: controlStateSchema, reason: z.string().optional() }),
]);

export type FleetEvent = z.infer<typeof fleetEventSchema>;
export type FleetEventType = FleetEvent['type'];
/** An event before the log has given it a sequence number and time. */
export type FleetEventInput = FleetEvent extends infer E ? (E extends FleetEvent ? Omit<E, 'seq' | 'at'> : never) : never;
