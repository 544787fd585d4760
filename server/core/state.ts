import { z } from 'zod';
import { adoptLegacyArtifacts } from './work-artifact-migration.js';
import { integrationConfigSchema, trainEntrySchema, type IntegrationConfig } from '../../contracts/index.js';
import { DEFAULT_WORK_SETTINGS, guidancePacketSchema, handoffArtifactSchema, claimModeSchema, personWaitSchema, controlStateSchema, reportedStatusSchema, roleSchema, tierSchema, violationSchema, workSettingsSchema, type GuidancePacket, type HandoffArtifact, type WorkSettings } from '../../contracts/index.js';
import {
  buildConfigRecordSchema,
  buildRunRecordSchema,
  guidanceRecordSchema,
  handoffRecordSchema,
  messageRecordSchema,
  workRecordSchema,
  type BuildConfigRecord,
  type BuildRunRecord,
  type GuidanceRecord,
  type HandoffRecord,
  type MessageRecord,
  type WorkRecord,
} from './orchestration-records.js';
import { forecastRecordSchema, writeSetRecordSchema, type ForecastRecord, type WriteSetRecord } from './integration-forecast.js';

/**
 * The persisted state of the plane, in the shape the snapshot stores. Times are epoch
 * milliseconds. Derived indexes (territory, callsigns) live beside it in `Indexes` and are rebuilt
 * on load, never persisted.
 */
export const agentRecordSchema = z.object({
  agentId: z.string(),
  callsign: z.string(),
  runtime: z.string(),
  role: roleSchema,
  tier: tierSchema,
  worktree: z.string().optional(),
  pid: z.number().int().optional(),
  /** Process start time read when the pid was registered, so the stop backstop never hits a reused pid. */
  pidStart: z.string().optional(),
  tokenHash: z.string(),
  joinedAt: z.number(),
  lastSeen: z.number(),
  /** The last logged sign of life (join or heartbeat); lastSeen also counts unlogged calls. */
  heartbeatAt: z.number().optional(),
  reported: reportedStatusSchema,
  note: z.string().optional(),
  task: z.string().optional(),
  gone: z.enum(['left', 'expired']).optional(),
  /** When it went (left, expired, or its process exited): it is pruned a retention window later. */
  goneAt: z.number().optional(),
  /** Set once the `agent.unknown` event has been recorded for the current silence. */
  markedUnknown: z.boolean().optional(),
  /** Set once the `agent.stalled` event has been recorded for the current silence. */
  markedStalled: z.boolean().optional(),
  /** On a shared log: the plane that last relayed its liveness, and when that plane last logged anything of its own. */
  plane: z.string().optional(),
  planeHeardAt: z.number().optional(),
  /** The last runtime hook call checked for it since it joined (hooks-seen.ts): its hooks run. */
  hooksSeen: z.object({ hook: z.string(), at: z.number() }).optional(),
  /** The runtime sessions (hook payloads' session_id) bound to it at SessionStart, oldest first (hook-sessions.ts). */
  hookSessions: z.array(z.string()).optional(),
  /** Its runtime waits for a person, since `since` (person-waits.ts). */
  waiting: personWaitSchema.extend({ since: z.number() }).optional(),
});
export type AgentRecord = z.infer<typeof agentRecordSchema>;

export const claimRecordSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  scope: z.string(),
  pattern: z.string(),
  mode: claimModeSchema,
  fence: z.number().int(),
  grantedAt: z.number(),
  /** Only for claims made with a TTL; the others live as long as their agent. */
  ttlMs: z.number().optional(),
  expiresAt: z.number().optional(),
  reason: z.string().optional(),
  /** Set while the claim travels with a pending handoff: nobody writes under it, nobody else takes it. */
  escrow: z.string().optional(),
  /**
   * The work item it is held for once its builder completed it on a branch of its own (awaiting
   * integration): it belongs to the item, not the agent, and nobody writes under it until it lands.
   */
  heldFor: z.string().optional(),
});
export type ClaimRecord = z.infer<typeof claimRecordSchema>;

/**
 * A claim that waits for its territory instead of being held: when two scopes of an older plane
 * merged into one (two clones of one origin), the later of two overlapping claims waits here, in
 * the claim queue, until the earlier one ends (DESIGN §13). It is never dropped while its agent lives.
 */
export const parkedClaimRecordSchema = claimRecordSchema.pick({ id: true, agentId: true, scope: true, pattern: true, mode: true, ttlMs: true, reason: true, grantedAt: true }).extend({ parkedAt: z.number() });
export type ParkedClaimRecord = z.infer<typeof parkedClaimRecordSchema>;

export const leaseRecordSchema = z.object({ name: z.string(), agentId: z.string(), fence: z.number().int(), expiresAt: z.number() });
export type LeaseRecord = z.infer<typeof leaseRecordSchema>;

export const memoRecordSchema = z.object({
  key: z.string(),
  value: z.unknown(),
  version: z.number().int(),
  updatedBy: z.string(),
  updatedAt: z.number(),
});
export type MemoRecord = z.infer<typeof memoRecordSchema>;

export const controlRecordSchema = z.object({
  state: controlStateSchema,
  reason: z.string().optional(),
  setBy: z.string(),
  setAt: z.number(),
});
export type ControlRecord = z.infer<typeof controlRecordSchema>;

export const requestRecordSchema = z.object({
  agentId: z.string(),
  claims: z.array(z.object({ id: z.string(), pattern: z.string(), fence: z.number().int() })),
  at: z.number(),
});
export type RequestRecord = z.infer<typeof requestRecordSchema>;

/** A violation as the operator reads it, with its time in epoch milliseconds. */
export const violationRecordSchema = violationSchema.extend({ at: z.number() });
export type ViolationRecord = z.infer<typeof violationRecordSchema>;

/** An item on the train, with its times in epoch ms. */
export const trainRecordSchema = trainEntrySchema.extend({ queuedAt: z.number(), leftAt: z.number().optional() });
export type TrainRecord = z.infer<typeof trainRecordSchema>;

/** The batch a scope's train is working on (integration-train.ts): building, or GREEN at `tip` and moving the target. */
export const trainBatchRecordSchema = z.object({ scope: z.string(), itemIds: z.array(z.string()), base: z.string(), tip: z.string().optional(), merges: z.array(z.string()).optional(), at: z.number() });
export type TrainBatchRecord = z.infer<typeof trainBatchRecordSchema>;

export const stateSchema = z.object({
  seq: z.number().int().min(0),
  control: controlRecordSchema,
  agents: z.array(agentRecordSchema),
  claims: z.array(claimRecordSchema),
  leases: z.array(leaseRecordSchema),
  memos: z.array(memoRecordSchema),
  /** Last fence issued per scope, and per lease name: fences only ever grow. */
  claimFences: z.record(z.string(), z.number().int()),
  leaseFences: z.record(z.string(), z.number().int()),
  /** Recent claim requests by `agentId requestId`, so a retry returns the same grant. */
  requests: z.record(z.string(), requestRecordSchema),
  handoffs: z.array(handoffRecordSchema).default([]),
  messages: z.array(messageRecordSchema).default([]),
  work: z.array(workRecordSchema).default([]),
  buildConfigs: z.array(buildConfigRecordSchema).default([]),
  buildRuns: z.array(buildRunRecordSchema).default([]),
  lastDigestSeq: z.number().int().default(0),
  /** Territory violations the operator has not acknowledged yet, oldest first. */
  violations: z.array(violationRecordSchema).default([]),
  workSettings: workSettingsSchema.default(DEFAULT_WORK_SETTINGS),
  /** The last guidance seen per worktree, so a pull tells whether it changed. */
  guidance: z.array(guidanceRecordSchema).default([]),
  parkedClaims: z.array(parkedClaimRecordSchema).default([]),
  /** Every handoff artifact of the items in the queue, past rounds' too, by id (work-artifacts.ts). */
  artifacts: z.array(handoffArtifactSchema).default([]),
  /** The guidance packets issued lately (MAX_KEPT_GUIDANCE_PACKETS; the log keeps all of them). */
  guidancePackets: z.array(guidancePacketSchema).default([]),
  /** Live agents' write-sets and the conflicts forecast between them (integration-forecast.ts). */
  writeSets: z.array(writeSetRecordSchema).default([]),
  forecasts: z.array(forecastRecordSchema).default([]),
  integrationConfigs: z.array(integrationConfigSchema).default([]),
  /** Items on the train and lately off it, by item id, queue order. */
  train: z.array(trainRecordSchema).default([]),
  trainBatches: z.array(trainBatchRecordSchema).default([]),
});
export type PersistedState = z.infer<typeof stateSchema>;

/** The live, indexed form the core works on. */
export interface State {
  seq: number;
  control: ControlRecord;
  agents: Map<string, AgentRecord>;
  claims: Map<string, ClaimRecord>;
  leases: Map<string, LeaseRecord>;
  memos: Map<string, MemoRecord>;
  claimFences: Map<string, number>;
  leaseFences: Map<string, number>;
  requests: Map<string, RequestRecord>;
  handoffs: Map<string, HandoffRecord>;
  messages: Map<string, MessageRecord>;
  /** Insertion order is queue order: pull takes the oldest ready item that fits. */
  work: Map<string, WorkRecord>;
  buildConfigs: Map<string, BuildConfigRecord>;
  buildRuns: Map<string, BuildRunRecord>;
  lastDigestSeq: number;
  violations: Map<string, ViolationRecord>;
  workSettings: WorkSettings;
  guidance: Map<string, GuidanceRecord>;
  /** By claim id; insertion order is queue order. */
  parkedClaims: Map<string, ParkedClaimRecord>;
  /** Insertion order is the order they were produced in. */
  artifacts: Map<string, HandoffArtifact>;
  guidancePackets: Map<string, GuidancePacket>;
  /** By agent id. */
  writeSets: Map<string, WriteSetRecord>;
  /** By forecastKey: only conflicts that hold now. */
  forecasts: Map<string, ForecastRecord>;
  integrationConfigs: Map<string, IntegrationConfig>;
  /** By item id; insertion order is queue order. */
  train: Map<string, TrainRecord>;
  /** By scope: at most one batch per scope's train. */
  trainBatches: Map<string, TrainBatchRecord>;
}

export function emptyState(now: number): State {
  return {
    seq: 0,
    control: { state: 'run', setBy: 'plane', setAt: now },
    agents: new Map(),
    claims: new Map(),
    leases: new Map(),
    memos: new Map(),
    claimFences: new Map(),
    leaseFences: new Map(),
    requests: new Map(),
    handoffs: new Map(),
    messages: new Map(),
    work: new Map(),
    buildConfigs: new Map(),
    buildRuns: new Map(),
    lastDigestSeq: 0,
    violations: new Map(),
    workSettings: { ...DEFAULT_WORK_SETTINGS },
    guidance: new Map(),
    parkedClaims: new Map(),
    artifacts: new Map(),
    guidancePackets: new Map(),
    writeSets: new Map(),
    forecasts: new Map(),
    integrationConfigs: new Map(),
    train: new Map(),
    trainBatches: new Map(),
  };
}

export function toPersisted(state: State): PersistedState {
  return {
    seq: state.seq,
    control: state.control,
    agents: [...state.agents.values()],
    claims: [...state.claims.values()],
    leases: [...state.leases.values()],
    memos: [...state.memos.values()],
    claimFences: Object.fromEntries(state.claimFences),
    leaseFences: Object.fromEntries(state.leaseFences),
    requests: Object.fromEntries(state.requests),
    handoffs: [...state.handoffs.values()],
    messages: [...state.messages.values()],
    work: [...state.work.values()],
    buildConfigs: [...state.buildConfigs.values()],
    buildRuns: [...state.buildRuns.values()],
    lastDigestSeq: state.lastDigestSeq,
    violations: [...state.violations.values()],
    workSettings: state.workSettings,
    guidance: [...state.guidance.values()],
    parkedClaims: [...state.parkedClaims.values()],
    artifacts: [...state.artifacts.values()],
    guidancePackets: [...state.guidancePackets.values()],
    writeSets: [...state.writeSets.values()],
    forecasts: [...state.forecasts.values()],
    integrationConfigs: [...state.integrationConfigs.values()],
    train: [...state.train.values()],
    trainBatches: [...state.trainBatches.values()],
  };
}

export function fromPersisted(p: PersistedState): State {
  const state: State = {
    seq: p.seq,
    control: p.control,
    agents: new Map(p.agents.map((a) => [a.agentId, a])),
    claims: new Map(p.claims.map((c) => [c.id, c])),
    leases: new Map(p.leases.map((l) => [l.name, l])),
    memos: new Map(p.memos.map((m) => [m.key, m])),
    claimFences: new Map(Object.entries(p.claimFences)),
    leaseFences: new Map(Object.entries(p.leaseFences)),
    requests: new Map(Object.entries(p.requests)),
    handoffs: new Map(p.handoffs.map((h) => [h.id, h])),
    messages: new Map(p.messages.map((m) => [m.id, m])),
    work: new Map(p.work.map((w) => [w.id, w])),
    buildConfigs: new Map(p.buildConfigs.map((c) => [c.scope, c])),
    buildRuns: new Map(p.buildRuns.map((r) => [r.id, r])),
    lastDigestSeq: p.lastDigestSeq,
    violations: new Map(p.violations.map((v) => [v.id, v])),
    workSettings: p.workSettings,
    guidance: new Map(p.guidance.map((g) => [g.worktree, g])),
    parkedClaims: new Map(p.parkedClaims.map((c) => [c.id, c])),
    artifacts: new Map(p.artifacts.map((a) => [a.artifactId, a])),
    guidancePackets: new Map(p.guidancePackets.map((a) => [a.artifactId ?? '', a])),
    writeSets: new Map(p.writeSets.map((w) => [w.agentId, w])),
    forecasts: new Map(p.forecasts.map((f) => [f.key, f])),
    integrationConfigs: new Map(p.integrationConfigs.map((c) => [c.scope, c])),
    train: new Map(p.train.map((t) => [t.itemId, t])),
    trainBatches: new Map(p.trainBatches.map((b) => [b.scope, b])),
  };
  adoptLegacyArtifacts(state);
  return state;
}

export function requestKey(agentId: string, requestId: string): string {
  return `${agentId} ${requestId}`;
}

/** Keep idempotency records bounded; the oldest go first (Map keeps insertion order). */
export const MAX_REMEMBERED_REQUESTS = 20_000;
