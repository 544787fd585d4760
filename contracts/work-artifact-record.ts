import { z } from 'zod';
import { buildArtifactSchema, decisionSchema, verificationReportSchema } from './work.js';
import { buildPlanSchema, clarificationRequestSchema, clarificationResponseSchema, guidancePacketSchema, verificationRequestSchema } from './work-protocol.js';

/** Every record field an artifact read by its id has (work-artifact.ts describes them). */
const sealed = { artifactId: z.string(), schemaVersion: z.number().int().positive(), producedAt: z.iso.datetime(), sourceRefs: z.array(z.string()) };

/** One artifact as read by its id: the kind tells which of the eight it is. */
export const handoffArtifactSchema = z.discriminatedUnion('kind', [
  guidancePacketSchema.extend({ kind: z.literal('GuidancePacket'), ...sealed }),
  buildPlanSchema.extend({ kind: z.literal('BuildPlan'), ...sealed }),
  buildArtifactSchema.extend({ kind: z.literal('BuildArtifact'), ...sealed }),
  verificationRequestSchema.extend({ kind: z.literal('VerificationRequest'), ...sealed }),
  verificationReportSchema.extend({ kind: z.literal('VerificationReport'), ...sealed }),
  clarificationRequestSchema.extend({ kind: z.literal('ClarificationRequest'), ...sealed }),
  clarificationResponseSchema.extend({ kind: z.literal('ClarificationResponse'), ...sealed }),
  decisionSchema.extend({ kind: z.literal('OrchestratorDecision'), ...sealed }),
]);
export type HandoffArtifact = z.infer<typeof handoffArtifactSchema>;
