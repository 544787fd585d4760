import { z } from 'zod';
import { roleSchema } from './records.js';

/**
 * What makes each handoff artifact of the work protocol (seed 001, the multi-agent handoff
 * protocol) a record of its own: a stable id, the schema version, the item it belongs to, who
 * produced it in which role and when, what it rests on, and a fingerprint of its content. The
 * plane fills these fields; agents send only the content. The names are the project's camelCase
 * (DESIGN §16); each description names the seed's field.
 */

/** The version of the artifact records' shape; a reader refuses nothing older, it only knows more. */
export const ARTIFACT_SCHEMA_VERSION = 1;

export const artifactKindSchema = z.enum([
  'GuidancePacket',
  'BuildPlan',
  'BuildArtifact',
  'VerificationRequest',
  'VerificationReport',
  'ClarificationRequest',
  'ClarificationResponse',
  'OrchestratorDecision',
]);
export type ArtifactKind = z.infer<typeof artifactKindSchema>;

/** A fleet role, or `orchestrator`: the plane itself, which issues guidance and verification requests. */
export const producerRoleSchema = z.enum(['orchestrator', ...roleSchema.options]);
export type ProducerRole = z.infer<typeof producerRoleSchema>;

/**
 * The record fields. Optional in the schema only because artifacts stored before they existed are
 * read back without them; the plane gives those deterministic ids when it loads them.
 */
export const artifactRecordShape = {
  artifactId: z.string().optional().describe('The stable id of this artifact (seed: artifact_id); the reserved `id` carries the same value. Read it with fleet_work_artifact or `fleet work artifact ID`.'),
  schemaVersion: z.number().int().positive().optional().describe('The version of the artifact record shape (seed: schema_version).'),
  kind: artifactKindSchema.optional().describe('Which of the eight handoff artifacts this is.'),
  workItem: z.string().optional().describe('The work item it belongs to (seed: waypoint_id); a guidance packet from a pull that returned no item has none.'),
  producedByRole: producerRoleSchema.optional().describe('The role that produced it (seed: produced_by_role): `orchestrator` is the plane (guidance packets, verification requests), else the agent\'s fleet role.'),
  producedBy: z.string().optional().describe('Who produced it: an agent\'s callsign, `plane`, or the operator\'s name.'),
  producedAt: z.iso.datetime().optional().describe('When it was produced (seed: produced_at).'),
  sourceRefs: z.array(z.string()).optional().describe('What it rests on (seed: source_refs): the ids of earlier artifacts, and commit hashes.'),
};

/** A commit hash as an operator may cite one instead of an artifact. */
export const COMMIT_REF = /^[0-9a-f]{7,64}$/;
