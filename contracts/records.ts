import { z } from 'zod';
import { callsignPattern, callsignRule } from './callsign.js';
import { boundedText, limits } from './limits.js';
import { ROLES, type Role } from './roles.js';

export const callsignSchema = boundedText(limits.callsign).regex(callsignPattern, callsignRule);

export const roleSchema = z.enum(ROLES);
export type { Role };

export const tierSchema = z.enum(['local', 'edge']);
export type Tier = z.infer<typeof tierSchema>;

/**
 * Self-reported statuses; `unknown`, `stalled`, `left` and `expired` are decided by the plane.
 * `stalled`: silent for 3 × TTL but kept live by its registered process (DESIGN §5, invariant 4).
 */
export const reportedStatusSchema = z.enum(['active', 'idle', 'blocked']);
export const agentStatusSchema = z.enum(['active', 'idle', 'blocked', 'unknown', 'left', 'expired', 'stalled']);
export type AgentStatus = z.infer<typeof agentStatusSchema>;

export const controlStateSchema = z.enum(['run', 'pause', 'drain', 'stop']);
export type ControlState = z.infer<typeof controlStateSchema>;

export const claimModeSchema = z.enum(['exclusive', 'shared']);
export type ClaimMode = z.infer<typeof claimModeSchema>;

const isoTime = z.iso.datetime();

/**
 * A runtime waiting for a person, as its own hook told the fleet (Claude Code's Notification,
 * Codex's PermissionRequest). Recorded to put it in front of the operator; the hook never answers
 * the runtime's request (DESIGN §16). permission: it asks to run a tool; input: it waits for the
 * next prompt; question: it put a question to the person (an MCP elicitation).
 */
export const personWaitSchema = z.object({
  hook: boundedText(limits.label).min(1),
  reason: z.enum(['permission', 'input', 'question']),
  message: boundedText(limits.paragraph),
  tool: boundedText(limits.label).optional(),
});
export type PersonWait = z.infer<typeof personWaitSchema>;

export const agentSchema = z.object({
  agentId: z.string(),
  callsign: callsignSchema,
  runtime: z.string(),
  role: roleSchema,
  tier: tierSchema,
  status: agentStatusSchema,
  worktree: z.string().optional(),
  pid: z.number().int().optional(),
  note: z.string().optional(),
  task: z.string().optional(),
  joinedAt: isoTime,
  lastSeenAt: isoTime,
  claimCount: z.number().int(),
  hooksSeen: z.object({ hook: z.string(), at: isoTime }).optional().describe('The last call of its runtime\'s tool hook (claude-pre-tool-use, codex-pre-tool-use) since it joined: absent means its hooks have not run this session (for Codex: installed but not yet trusted, or not installed)'),
  waitingForPerson: personWaitSchema.extend({ since: isoTime }).optional().describe('Its runtime waits for a person (a permission prompt, the next prompt, a question), as its hook said; cleared by its next tool call'),
});
export type Agent = z.infer<typeof agentSchema>;

/**
 * What ends a claim: its own TTL ("ttl": renew it before expiresAt), its agent's heartbeats
 * ("heartbeats": it lapses at expiresAt without one), or its agent's registered process
 * ("process": no expiry while that process runs; released within seconds of its end), or the landing
 * of the work item it is held for ("landing": no expiry; released when the item's branch lands).
 */
export const claimExpirySchema = z.enum(['ttl', 'heartbeats', 'process', 'landing']);
export type ClaimExpiry = z.infer<typeof claimExpirySchema>;

export const claimSchema = z.object({
  id: z.string(),
  /** The repository's git common dir: all worktrees of one repository share territory. */
  scope: z.string(),
  pattern: z.string(),
  mode: claimModeSchema,
  holder: callsignSchema,
  agentId: z.string(),
  fence: z.number().int().positive(),
  grantedAt: isoTime,
  /**
   * When the claim lapses unless renewed (TTL claims) or unless its agent heartbeats (agent-bound
   * claims); null while its agent's registered process keeps it (expiresWith "process").
   */
  expiresAt: isoTime.nullable(),
  expiresWith: claimExpirySchema,
  ttlSeconds: z.number().positive().optional(),
  reason: z.string().optional(),
  /** The work item it is held for after its builder completed it: awaiting integration (nobody writes under it until it lands). */
  heldFor: z.string().optional(),
});
export type Claim = z.infer<typeof claimSchema>;

/** A claim the scope migration parked (DESIGN §13): it overlapped another's after two scopes merged, and waits in the queue. */
export const parkedClaimSchema = claimSchema.pick({ id: true, scope: true, pattern: true, mode: true, holder: true, agentId: true, ttlSeconds: true, reason: true }).extend({
  grantedAt: isoTime.describe('When it was first granted, before the merge'),
  parkedAt: isoTime,
});
export type ParkedClaim = z.infer<typeof parkedClaimSchema>;

export const leaseSchema = z.object({
  name: z.string(),
  holder: callsignSchema.nullable(),
  expiresAt: isoTime.nullable(),
  fence: z.number().int(),
});
export type Lease = z.infer<typeof leaseSchema>;

export const memoSchema = z.object({
  key: z.string(),
  value: z.unknown(),
  version: z.number().int().positive(),
  updatedBy: z.string(),
  updatedAt: isoTime,
});
export type Memo = z.infer<typeof memoSchema>;

export const controlSchema = z.object({
  state: controlStateSchema,
  reason: z.string().optional(),
  setBy: z.string(),
  setAt: isoTime,
});
export type Control = z.infer<typeof controlSchema>;

/** The short form every agent-facing reply carries. */
export const controlBriefSchema = z.object({ state: controlStateSchema, reason: z.string().optional() });
export type ControlBrief = z.infer<typeof controlBriefSchema>;
