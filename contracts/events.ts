import { z } from 'zod';
import { buildRunStatusSchema } from './build.js';
import { handoffEnvelopeSchema } from './handoff.js';
import { awaitingLandingItemsSchema, forecastFields, MAX_NOT_COMPARED_CHARS, writeSetFields } from './integration.js';
import { integrationConfigSchema, trainEntrySchema } from './train.js';
import { messageSchema, messageStatusSchema, messageTypeSchema } from './messages.js';
import { claimModeSchema, controlStateSchema, personWaitSchema, reportedStatusSchema, roleSchema, tierSchema } from './records.js';
import { buildArtifactSchema, decisionSchema, escalationSchema, verificationReportSchema, workItemSchema, workStatusSchema } from './work.js';
import { buildPlanSchema, clarificationRequestSchema, clarificationResponseSchema, guidancePacketSchema, workSettingsSchema } from './work-protocol.js';

/**
 * Every change to the plane's state is one of these events, appended to the log before it is
 * acknowledged. Replaying the log rebuilds the state; time-based decisions (expiry, termination)
 * are recorded as events too, so a replay never re-decides anything.
 */
const base = { seq: z.number().int().positive(), at: z.number(), by: z.string().optional() };

/**
 * An agent that is gone (left, expired, its process exited). `awaitingLanding`: the items it built on
 * its write-set's branch whose claims are held until they land; its write-set then stays, still
 * forecast against, until they land (absent in older logs: the write-set went with the agent).
 */
const goneAgentFields = { agentId: z.string(), awaitingLanding: awaitingLandingItemsSchema.optional() };

const claimReleaseReasonSchema = z.enum([
  'released',
  'expired',
  'agent_left',
  'transferred',
  'force_released',
  'process_exited',
  /** The work item it was held for landed (or went back to a builder, was rolled back or removed). */
  'landed',
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
    /** On a shared log: the plane it joined through. */
    plane: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('agent.rejoined'),
    agentId: z.string(),
    worktree: z.string().optional(),
    pid: z.number().int().optional(),
    pidStart: z.string().optional(),
    /** On a shared log: the plane it re-joined through. */
    plane: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('agent.heartbeat'),
    agentId: z.string(),
    /** On a shared log: the plane that heard the agent and relayed it (its agents' silence is judged with its own). */
    plane: z.string().optional(),
    status: reportedStatusSchema.optional(),
    note: z.string().optional(),
    task: z.string().optional(),
  }),
  z.object({ ...base, type: z.literal('agent.unknown'), agentId: z.string() }),
  z.object({ ...base, type: z.literal('agent.left'), ...goneAgentFields }),
  z.object({ ...base, type: z.literal('agent.expired'), ...goneAgentFields }),
  /** Silent for 3 × TTL, kept live because its registered process still runs; or silent for 2 × TTL while the plane that relayed it is silent too. */
  z.object({ ...base, type: z.literal('agent.stalled'), agentId: z.string() }),
  /** The agent's registered process ended (or its pid now names another process): it is gone. */
  z.object({ ...base, type: z.literal('agent.process_exited'), ...goneAgentFields, pid: z.number().int() }),
  /** A gone agent dropped from the state after the retention window; its history stays in the log. */
  z.object({ ...base, type: z.literal('agent.pruned'), agentId: z.string() }),
  /** A runtime session (a hook payload's session_id) speaks for this agent from now on (its SessionStart hook bound it). */
  z.object({ ...base, type: z.literal('agent.session_bound'), agentId: z.string(), sessionId: z.string() }),
  /** That runtime session ended (its SessionEnd hook, after the escrow): its hooks no longer name this agent. */
  z.object({ ...base, type: z.literal('agent.session_unbound'), agentId: z.string(), sessionId: z.string() }),
  /** Its runtime waits for a person (its Notification or PermissionRequest hook said so); nothing answered it. */
  z.object({ ...base, type: z.literal('agent.waiting'), agentId: z.string(), ...personWaitSchema.shape }),
  /** Its runtime went on (its next tool call reached a hook): nobody is waited for any more. */
  z.object({ ...base, type: z.literal('agent.wait_ended'), agentId: z.string() }),
  /** The plane could not run from `from` until `at` (GC, disk, SIGSTOP): silence excludes that time. */
  z.object({ ...base, type: z.literal('plane.stalled'), from: z.number() }),
  /** On a shared log: a plane relaying its agents' liveness is still there, though none of them called since its last word. */
  z.object({ ...base, type: z.literal('plane.heartbeat'), plane: z.string() }),
  /** On a shared log: a plane shut down; its agents' silence is their own from now on (they expire at their TTL, not its death bound). */
  z.object({ ...base, type: z.literal('plane.stopped'), plane: z.string() }),
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
    /** Held for this work item until it lands (its builder completed it on a branch of its own). */
    heldFor: z.string().optional(),
  }),
  z.object({ ...base, type: z.literal('claim.renewed'), claimId: z.string(), expiresAt: z.number() }),
  /**
   * Scope ids of an older plane (git common dirs) renamed to portable ones (DESIGN §13). Where two
   * old scopes became one, the later of two overlapping claims is `parked`: it waits in the queue.
   */
  z.object({ ...base, type: z.literal('scopes.migrated'), renames: z.array(z.object({ from: z.string(), to: z.string() })), parked: z.array(z.string()) }),
  /** A parked claim left the queue: granted anew (its new claim's grant precedes this), or its agent is gone. */
  z.object({ ...base, type: z.literal('claim.unparked'), claimId: z.string(), granted: z.boolean() }),
  z.object({
    ...base,
    type: z.literal('claim.released'),
    claimId: z.string(),
    reason: claimReleaseReasonSchema,
    note: z.string().optional(),
    /** Who held what, so the log reads on its own (history, digest) without replaying grants. */
    agentId: z.string().optional(),
    scope: z.string().optional(),
    pattern: z.string().optional(),
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
    reason: z.enum(['released', 'expired', 'agent_left', 'process_exited']),
  }),
  z.object({ ...base, type: z.literal('memo.written'), key: z.string(), value: z.unknown(), version: z.number().int() }),
  z.object({ ...base, type: z.literal('control.set'), state: controlStateSchema, reason: z.string().optional() }),
  z.object({ ...base, type: z.literal('claim.escrowed'), claimId: z.string(), handoffId: z.string() }),
  z.object({ ...base, type: z.literal('claim.unescrowed'), claimId: z.string() }),
  z.object({ ...base, type: z.literal('handoff.sent'), handoffId: z.string(), fromAgentId: z.string(), envelope: handoffEnvelopeSchema, expiresAt: z.number() }),
  z.object({
    ...base,
    type: z.literal('handoff.resolved'),
    handoffId: z.string(),
    status: z.enum(['accepted', 'declined', 'expired']),
    acceptedBy: z.string().optional(),
    reason: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('message.sent'),
    messageId: z.string(),
    messageType: messageTypeSchema,
    ...messageSchema.pick({ from: true, to: true, priority: true, subject: true, body: true, refs: true, workItem: true, mentions: true }).shape,
  }),
  z.object({ ...base, type: z.literal('message.status'), messageId: z.string(), status: messageStatusSchema }),
  z.object({
    ...base,
    type: z.literal('work.added'),
    itemId: z.string(),
    ...workItemSchema.pick({ title: true, kind: true, parent: true, dependsOn: true, paths: true, criteria: true, role: true, tier: true, scope: true, budgets: true }).shape,
  }),
  z.object({
    ...base,
    type: z.literal('work.transitioned'),
    itemId: z.string(),
    status: workStatusSchema,
    assignee: z.string().nullable().optional(),
    verifier: z.string().nullable().optional(),
    reason: z.string().optional(),
    artifact: buildArtifactSchema.optional(),
    report: verificationReportSchema.optional(),
    decision: decisionSchema.optional(),
    ...workItemSchema.pick({ verificationRequest: true, startCommit: true, integration: true, landedCommit: true, landedOnto: true }).partial().shape,
    reworkRounds: z.number().int().optional(),
    /** Set when a spent budget sends the item to the operator; null clears it. */
    escalation: escalationSchema.nullable().optional(),
  }),
  z.object({ ...base, type: z.literal('work.blockers'), itemId: z.string(), blockedBy: z.array(z.string()) }),
  z.object({ ...base, type: z.literal('work.planned'), itemId: z.string(), plan: buildPlanSchema }),
  z.object({ ...base, type: z.literal('work.clarification_asked'), itemId: z.string(), request: clarificationRequestSchema }),
  z.object({ ...base, type: z.literal('work.clarification_answered'), itemId: z.string(), response: clarificationResponseSchema }),
  /** The fleet's protocol settings, or (with itemId) one item's budgets. */
  z.object({ ...base, type: z.literal('work.configured'), itemId: z.string().optional(), ...workSettingsSchema.partial().shape }),
  /** The guidance of a worktree changed (or was first seen): its version grew. */
  z.object({ ...base, type: z.literal('work.guidance'), worktree: z.string(), version: z.number().int().positive(), policyHash: z.string() }),
  /** A guidance packet the plane issued with a pull, recorded once per content so it can be read by its id. */
  z.object({ ...base, type: z.literal('work.guided'), packet: guidancePacketSchema }),
  /** A repository's integration settings (fleet integrate configure). */
  z.object({ ...base, type: z.literal('integration.configured'), ...integrationConfigSchema.omit({ configuredBy: true }).shape }),
  /** An item's branch queued on the train at a pinned commit (fleet land, or an accept with land-on-accept). */
  z.object({ ...base, type: z.literal('integration.queued'), ...trainEntrySchema.pick({ itemId: true, scope: true, branch: true, commit: true, target: true, repository: true, revert: true, revertFrom: true }).shape }),
  /**
   * The train's progress, recorded before each irreversible step so a restart resumes it: a batch
   * merged onto `base` and building (tip absent), or built GREEN at `tip` and about to move the target.
   */
  z.object({ ...base, type: z.literal('integration.batch'), scope: z.string(), itemIds: z.array(z.string()), base: z.string(), tip: z.string().optional(), /** Each item's own merge (or revert) commit, in itemIds' order. */ merges: z.array(z.string()).optional() }),
  /** The batch is over (landed, or its items went back to the queue or their builders). */
  z.object({ ...base, type: z.literal('integration.batch_ended'), scope: z.string(), /** Its build was RED (then bisected). */ red: z.boolean().optional() }),
  /** An item left the train: landed (with its merge commit), returned to its builder (rework), or failed for a reason no rework fixes. */
  z.object({
    ...base,
    type: z.literal('integration.left'),
    itemId: z.string(),
    status: z.enum(['landed', 'returned', 'failed']),
    landedCommit: z.string().optional(),
    reason: z.string().optional(),
    logTail: z.string().optional(),
    /** Why it was returned: a textual conflict, a RED build, a branch that moved after it was queued. */
    cause: z.enum(['conflict', 'red', 'moved']).optional(),
  }),
  /** Finished items taken out of the queue by the operator or an RTE (fleet_work_remove). */
  z.object({ ...base, type: z.literal('work.removed'), itemIds: z.array(z.string()) }),
  z.object({
    ...base,
    type: z.literal('build.configured'),
    scope: z.string(),
    command: z.string(),
    worktree: z.string(),
    timeoutSeconds: z.number().positive(),
  }),
  z.object({ ...base, type: z.literal('build.requested'), runId: z.string(), scope: z.string(), command: z.string() }),
  z.object({ ...base, type: z.literal('build.started'), runId: z.string(), commit: z.string().optional() }),
  z.object({
    ...base,
    type: z.literal('build.finished'),
    runId: z.string(),
    status: buildRunStatusSchema,
    exitCode: z.number().int().nullable(),
    durationMs: z.number(),
    commit: z.string().optional(),
    logTail: z.string(),
    timedOut: z.boolean(),
  }),
  z.object({ ...base, type: z.literal('override.used'), path: z.string().optional(), reason: z.string(), hook: z.string() }),
  z.object({ ...base, type: z.literal('digest.published'), fromSeq: z.number().int(), toSeq: z.number().int() }),
  z.object({
    ...base,
    type: z.literal('territory.violated'),
    violationId: z.string(),
    scope: z.string(),
    /** Repository-relative, like claim patterns. */
    path: z.string(),
    /** The writer's callsign, or `unknown` when the worktree's writer could not be told apart. */
    writer: z.string(),
    writerAgentId: z.string().optional(),
    /**
     * With writer `unknown` from the watcher: the agents whose hooked calls in other worktrees were in
     * flight when the write was seen. One of them may have made it; so may something no hook sees (the
     * holder's editor, a process it left running), so none is taken for the writer.
     */
    callsInFlight: z.array(z.string()).optional(),
    holder: z.string(),
    holderAgentId: z.string(),
    claimId: z.string(),
    fence: z.number().int(),
    /** Who saw it: `watcher`, or the hook that reported it. */
    source: z.string(),
    /** Hash of the content written (size-bounded), or `deleted`: one event per path and content. */
    fingerprint: z.string(),
  }),
  z.object({ ...base, type: z.literal('territory.violations_acknowledged'), violationIds: z.array(z.string()) }),
  /**
   * An agent's write-set changed (DESIGN §14): the repository-relative paths its work on its own
   * branch changed against the integration target, committed and uncommitted (`commit` is a
   * snapshot of its worktree). Empty `paths` with `ended` set: it has no write-set any more.
   */
  z.object({
    ...base,
    type: z.literal('integration.write_set'),
    ...writeSetFields,
    ended: z.boolean().optional(),
  }),
  /**
   * A forecast changed: merging the agent's work with the other side (another live agent's, or the
   * target when `otherAgentId` is absent) now conflicts in `paths`, or no longer does (`cleared`).
   */
  z.object({
    ...base,
    type: z.literal('integration.forecast'),
    status: z.enum(['conflict', 'cleared']),
    ...forecastFields,
  }),
  /**
   * What the scope's integrator could reach of an agent's write-set (its snapshot `commit`):
   * `notCompared` says why it was not compared with other branches (or only its last pushed commit
   * was); absent, it is compared in full again.
   */
  z.object({
    ...base,
    type: z.literal('integration.reach'),
    agentId: z.string(),
    commit: z.string(),
    notCompared: z.string().max(MAX_NOT_COMPARED_CHARS).optional(),
  }),
]);

export type FleetEvent = z.infer<typeof fleetEventSchema>;
export type FleetEventType = FleetEvent['type'];
/** An event before the log has given it a sequence number and time. */
export type FleetEventInput = FleetEvent extends infer E ? (E extends FleetEvent ? Omit<E, 'seq' | 'at'> : never) : never;
