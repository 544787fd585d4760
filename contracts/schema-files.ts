import { z } from 'zod';
import { errorTable, type ErrorName } from './errors.js';
import { fleetEventSchema } from './events.js';
import { sentHandoffEnvelopeSchema } from './handoff.js';
import { ledgerSchema } from './ledger.js';
import { methodList } from './method-table.js';
import { agentSchema, claimSchema, controlSchema, leaseSchema, memoSchema } from './records.js';
import { buildRunSchema } from './build.js';
import { digestSchema } from './digest.js';
import { messageSchema } from './messages.js';
import { buildArtifactSchema, decisionSchema, verificationReportSchema, workItemSchema } from './work.js';
import { handoffArtifactSchema } from './work-artifact-record.js';
import { buildPlanSchema, clarificationRequestSchema, clarificationResponseSchema, guidancePacketSchema, verificationRequestSchema } from './work-protocol.js';

const ID_BASE = 'https://fleet-coordination.local/schemas/';

function file(name: string, title: string, schema: z.ZodType, io: 'input' | 'output' = 'output') {
  return { ...z.toJSONSchema(schema, { io, unrepresentable: 'any' }), $id: `${ID_BASE}${name}`, title };
}

/**
 * Every JSON Schema file under contracts/schemas/, generated from the zod schemas. `npm run
 * generate` writes them; a test fails when the files on disk are stale.
 */
export function schemaFiles(): Record<string, object> {
  return {
    'fleet-coordination-ledger.schema.json': file('fleet-coordination-ledger.schema.json', 'FLEET_HOME/ledger.json: roster and ownership map (read-only cache)', ledgerSchema),
    'fleet-coordination-handoff.schema.json': file('fleet-coordination-handoff.schema.json', 'Handoff envelope', sentHandoffEnvelopeSchema, 'input'),
    'fleet-coordination-event.schema.json': file('fleet-coordination-event.schema.json', 'One event of the plane\'s append-only log', fleetEventSchema),
    'fleet-coordination-agent.schema.json': file('fleet-coordination-agent.schema.json', 'Agent on the roster', agentSchema),
    'fleet-coordination-claim.schema.json': file('fleet-coordination-claim.schema.json', 'Live claim on territory', claimSchema),
    'fleet-coordination-lease.schema.json': file('fleet-coordination-lease.schema.json', 'Named lease', leaseSchema),
    'fleet-coordination-memo.schema.json': file('fleet-coordination-memo.schema.json', 'Shared memo', memoSchema),
    'fleet-coordination-control.schema.json': file('fleet-coordination-control.schema.json', 'Fleet control switch', controlSchema),
    'fleet-coordination-work-item.schema.json': file('fleet-coordination-work-item.schema.json', 'Work item of the pull-based queue', workItemSchema),
    'fleet-coordination-handoff-artifact.schema.json': file('fleet-coordination-handoff-artifact.schema.json', 'Any of the eight handoff artifacts as read by its id (seed 001): its content and its record fields', handoffArtifactSchema),
    'fleet-coordination-build-plan.schema.json': file('fleet-coordination-build-plan.schema.json', "BuildPlan: a builder's plan for a work item", buildPlanSchema),
    'fleet-coordination-build-artifact.schema.json': file('fleet-coordination-build-artifact.schema.json', "BuildArtifact: a builder's completion claim", buildArtifactSchema),
    'fleet-coordination-verification-report.schema.json': file('fleet-coordination-verification-report.schema.json', "VerificationReport: a verifier's verdict and evidence per criterion", verificationReportSchema),
    'fleet-coordination-decision.schema.json': file('fleet-coordination-decision.schema.json', "OrchestratorDecision: an RTE's or the operator's disposition of a work item", decisionSchema),
    'fleet-coordination-verification-request.schema.json': file('fleet-coordination-verification-request.schema.json', 'VerificationRequest: what a verifier is asked to check', verificationRequestSchema),
    'fleet-coordination-clarification-request.schema.json': file('fleet-coordination-clarification-request.schema.json', 'ClarificationRequest: a clarification round\'s question', clarificationRequestSchema),
    'fleet-coordination-clarification-response.schema.json': file('fleet-coordination-clarification-response.schema.json', 'ClarificationResponse: a clarification round\'s answer', clarificationResponseSchema),
    'fleet-coordination-guidance.schema.json': file('fleet-coordination-guidance.schema.json', 'GuidancePacket: the rules attached to every pull', guidancePacketSchema),
    'fleet-coordination-message.schema.json': file('fleet-coordination-message.schema.json', 'Agent-to-agent message', messageSchema),
    'fleet-coordination-digest.schema.json': file('fleet-coordination-digest.schema.json', 'Heartbeat digest (JSON form)', digestSchema),
    'fleet-coordination-build-run.schema.json': file('fleet-coordination-build-run.schema.json', 'A build the plane ran', buildRunSchema),
    'fleet-coordination-methods.schema.json': {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `${ID_BASE}fleet-coordination-methods.schema.json`,
      title: 'Every method of the plane: params and result',
      methods: Object.fromEntries(
        methodList.map((m) => [
          m.name,
          {
            summary: m.summary,
            access: m.access,
            mcpTool: m.mcpTool,
            params: z.toJSONSchema(m.params, { io: 'input', unrepresentable: 'any' }),
            result: z.toJSONSchema(m.result, { unrepresentable: 'any' }),
          },
        ]),
      ),
    },
  };
}

/** docs/errors.md, rendered from the one error table. */
export function errorDocs(): string {
  const rows = (Object.keys(errorTable) as ErrorName[]).map((name) => {
    const entry = errorTable[name];
    return `| \`${entry.code}\` | \`${name}\` | ${entry.exitCode} | ${entry.doc} |`;
  });
  return [
    '# Errors',
    '',
    'Generated from `contracts/errors.ts` by `npm run generate`; a test keeps the two in step.',
    '',
    'Every error reply of the plane carries a JSON-RPC `code`, a `message` that says what was wrong',
    'and what to do, and `data.name`, the name below. The CLI exits with the code in the third column.',
    'A refusal by a conflict or by the control state is not an error: it is a normal result',
    '(`granted: false` with `refusedBy`), and the CLI exits 3 for it.',
    'Every string and list a client sends has a size limit; docs/limits.md lists them and why.',
    '',
    '| code | name | CLI exit | meaning and what to do |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
