import { createHash } from 'node:crypto';
import { ARTIFACT_SCHEMA_VERSION, FleetError, type ArtifactKind, type HandoffArtifact, type ProducerRole } from '../../contracts/index.js';
import type { Caller, Ctx } from './context.js';
import type { WorkRecord } from './orchestration-records.js';
import type { State } from './state.js';
import { iso } from './views.js';

/**
 * The handoff artifacts of the work protocol as records of their own (seed 001): the plane seals
 * what an agent sent with an id, the schema version, the producer, the time, what it rests on and a
 * fingerprint of its content, and keeps every one readable by its id (state.artifacts).
 */

/** The fields the plane fills; everything else is the artifact's content, which the fingerprint covers. */
const RECORD_FIELDS = new Set(['id', 'artifactId', 'schemaVersion', 'kind', 'workItem', 'producedByRole', 'producedBy', 'producedAt', 'sourceRefs', 'fingerprint', 'trust']);

const ID_PREFIX: Record<ArtifactKind, string> = {
  GuidancePacket: 'gp',
  BuildPlan: 'bp',
  BuildArtifact: 'ba',
  VerificationRequest: 'vq',
  VerificationReport: 'vr',
  ClarificationRequest: 'cq',
  ClarificationResponse: 'cr',
  OrchestratorDecision: 'od',
};

/** JSON with sorted keys, so that equal content always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** sha256 over the canonical JSON of the content (the record fields left out). */
export function fingerprintOf(artifact: object): string {
  const content = Object.fromEntries(Object.entries(artifact).filter(([key]) => !RECORD_FIELDS.has(key)));
  return `sha256:${createHash('sha256').update(canonical(content)).digest('hex')}`;
}

export interface Producer {
  role: ProducerRole;
  name: string;
}

/** The plane itself: the orchestrator of the seed, which issues guidance and verification requests. */
export const ORCHESTRATOR: Producer = { role: 'orchestrator', name: 'plane' };

/** Who a caller is as a producer: its fleet role and callsign, or the operator by name. */
export function producerOf(ctx: Ctx, caller: Caller): Producer {
  if (caller.kind === 'operator') return { role: 'operator', name: caller.name };
  const agent = caller.kind === 'agent' ? ctx.state.agents.get(caller.agentId) : undefined;
  return agent ? { role: agent.role, name: agent.callsign } : { role: 'operator', name: 'unjoined client' };
}

/**
 * `content` made a record: agents' own id, fingerprint or record fields are replaced. `id` is given
 * where the artifact already has one (a clarification request is the REQUEST message asking it).
 */
export function seal<T extends object>(ctx: Ctx, kind: ArtifactKind, content: T, meta: { workItem?: string; producer: Producer; sourceRefs: readonly (string | undefined)[]; id?: string }) {
  const body = Object.fromEntries(Object.entries(content).filter(([key]) => !RECORD_FIELDS.has(key) || key === 'trust')) as T;
  const artifactId = meta.id ?? ctx.ids.id(ID_PREFIX[kind]);
  return {
    ...body,
    id: artifactId,
    artifactId,
    schemaVersion: ARTIFACT_SCHEMA_VERSION,
    kind,
    ...(meta.workItem !== undefined && { workItem: meta.workItem }),
    producedByRole: meta.producer.role,
    producedBy: meta.producer.name,
    producedAt: iso(ctx.now),
    sourceRefs: [...new Set(meta.sourceRefs.filter((r): r is string => r !== undefined))],
    fingerprint: fingerprintOf(body),
  };
}

/** The content-addressed id of a guidance packet: the same rules for the same pull are one artifact. */
export function guidanceId(fingerprint: string): string {
  return `${ID_PREFIX.GuidancePacket}_${fingerprint.slice('sha256:'.length, 'sha256:'.length + 20)}`;
}

/** Partial artifact as stored before artifacts were records: any of the eight, the record fields possibly absent. */
type Stored = { artifactId?: string; id?: string; kind?: ArtifactKind; fingerprint?: string } & object;

/**
 * An artifact stored before artifacts were records, given its record fields: the id is derived
 * from the item, the kind and the content's fingerprint, so the snapshot and a replay of the log
 * name it alike. Records that have their fields are returned as they are.
 */
export function adoptLegacy<T extends Stored>(kind: ArtifactKind, artifact: T, facts: { workItem?: string; at?: number; by?: string }): T {
  if (artifact.artifactId !== undefined) return artifact;
  const fingerprint = fingerprintOf(artifact);
  const artifactId = artifact.id ?? `${ID_PREFIX[kind]}_${facts.workItem ?? 'fleet'}_${fingerprint.slice('sha256:'.length, 'sha256:'.length + 12)}`;
  const role = LEGACY_ROLE[kind];
  return {
    ...artifact,
    id: artifactId,
    artifactId,
    schemaVersion: ARTIFACT_SCHEMA_VERSION,
    kind,
    ...(facts.workItem !== undefined && { workItem: facts.workItem }),
    ...(role !== undefined && { producedByRole: role }),
    ...(facts.by !== undefined && { producedBy: facts.by }),
    ...(facts.at !== undefined && { producedAt: iso(facts.at) }),
    sourceRefs: [],
    fingerprint,
  };
}

/** The producer's role where the kind alone tells it; the others were not recorded. */
const LEGACY_ROLE: Partial<Record<ArtifactKind, ProducerRole>> = { GuidancePacket: 'orchestrator', VerificationRequest: 'orchestrator', VerificationReport: 'verifier' };

/** Keeps an artifact readable by its id. */
export function keepArtifact(state: State, artifact: Stored | undefined): void {
  if (artifact?.artifactId !== undefined) state.artifacts.set(artifact.artifactId, artifact as HandoffArtifact);
}

/** The ids of the item's current artifacts of `kinds`, in that order (those it has). */
export function currentRefs(item: WorkRecord, ...kinds: ('plan' | 'artifact' | 'verificationRequest' | 'report' | 'decision')[]): (string | undefined)[] {
  return kinds.map((kind) => item[kind]?.artifactId);
}

/** The answers the item's clarification rounds got: the constraints later work rests on. */
export function answeredRefs(item: WorkRecord): (string | undefined)[] {
  return item.clarifications.map((round) => round.response?.artifactId);
}

/** Every artifact the item holds now (its past rounds' are in state.artifacts). */
export function inlineArtifacts(item: WorkRecord): [ArtifactKind, Stored][] {
  const held: [ArtifactKind, Stored | undefined][] = [
    ['BuildPlan', item.plan],
    ['BuildArtifact', item.artifact],
    ['VerificationRequest', item.verificationRequest],
    ['VerificationReport', item.report],
    ['OrchestratorDecision', item.decision],
    ['ClarificationRequest', item.escalation?.question],
    ...item.clarifications.flatMap((round): [ArtifactKind, Stored | undefined][] => [
      ['ClarificationRequest', round.request],
      ['ClarificationResponse', round.response],
    ]),
  ];
  return held.filter((entry): entry is [ArtifactKind, Stored] => entry[1] !== undefined);
}

/** An artifact by its id, as every reader gets it (CLI, MCP, the editor). */
export function readArtifact(state: State, id: string): HandoffArtifact {
  const artifact = state.artifacts.get(id) ?? (state.guidancePackets.get(id) as HandoffArtifact | undefined);
  if (artifact) return artifact;
  throw new FleetError('NOT_FOUND', `no artifact ${id}: ids are the artifactId of a work item's plan, artifact, report, decision, clarification or pull guidance (fleet work show ID lists them); artifacts of items removed from the queue, and older guidance packets, are only in the event log`);
}
