import { z } from 'zod';
import { agentStatusSchema, controlStateSchema, roleSchema } from './records.js';
import { buildRunStatusSchema } from './build.js';

/** The operator's heartbeat digest: what happened between two points of the event log. */
/** An item's rounds spent of its budgets. */
export const budgetUseSchema = z.object({ id: z.string(), title: z.string(), reworkRounds: z.number().int(), reworkLimit: z.number().int(), clarificationRounds: z.number().int(), clarificationLimit: z.number().int() });

export const digestSchema = z.object({
  fromSeq: z.number().int(),
  toSeq: z.number().int(),
  generatedAt: z.iso.datetime(),
  control: z.object({ state: controlStateSchema, reason: z.string().optional(), setBy: z.string() }),
  agents: z.array(
    z.object({
      callsign: z.string(),
      role: roleSchema,
      runtime: z.string(),
      status: agentStatusSchema,
      note: z.string().optional(),
      task: z.string().optional(),
      /** The last logged join or heartbeat. */
      lastHeartbeatAt: z.iso.datetime(),
      claims: z.number().int(),
      workCompleted: z.number().int(),
    }),
  ),
  staleAgents: z.array(z.string()),
  builds: z.array(z.object({ scope: z.string(), status: buildRunStatusSchema, commit: z.string().optional(), exitCode: z.number().int().nullable().optional(), finishedAt: z.iso.datetime().optional() })),
  blockers: z.array(z.object({ kind: z.enum(['message', 'work', 'build']), ref: z.string(), text: z.string() })),
  claims: z.object({
    acquired: z.array(z.object({ holder: z.string(), pattern: z.string(), reason: z.string().optional() })),
    released: z.array(z.object({ holder: z.string(), pattern: z.string(), reason: z.string(), note: z.string().optional() })),
  }),
  handoffs: z.array(z.object({ id: z.string(), from: z.string(), to: z.string(), status: z.string() })),
  workCompleted: z.array(z.object({ id: z.string(), title: z.string(), by: z.string() })),
  workCounts: z.record(z.string(), z.number().int()),
  /** Writes seen in territory another agent held exclusively during the window (at most MAX_DIGEST_VIOLATIONS). */
  violations: z.array(z.object({ path: z.string(), writer: z.string(), holder: z.string(), source: z.string(), at: z.iso.datetime() })).default([]),
  /** The fleet switch's moves during the window, oldest first. */
  controlChanges: z.array(z.object({ state: controlStateSchema, reason: z.string().optional(), by: z.string(), at: z.iso.datetime() })).default([]),
  /** Work waiting for the operator (or an RTE): verified and waiting for a decision, or escalated. */
  awaitingDecision: z.array(z.object({ id: z.string(), title: z.string(), status: z.string() })).default([]),
  /** How many violations the operator has not acknowledged yet, whenever they happened. */
  unacknowledgedViolations: z.number().int().default(0),
  /** Items waiting for the operator: a spent budget (with its numbers) or an escalate decision (with its reason). */
  escalations: z
    .array(
      z.object({
        id: z.string(),
        title: z.string(),
        budget: z.enum(['rework', 'clarification']).optional(),
        spent: z.number().int().optional(),
        limit: z.number().int().optional(),
        by: z.string(),
        reason: z.string().optional(),
        /** The question that escalated (its request id, context, the asker's confidence, options): the operator answers it with `fleet work answer ID --option N`. */
        question: z.object({ requestId: z.string(), question: z.string(), context: z.string().optional(), confidence: z.enum(['low', 'medium', 'high']).optional(), options: z.array(z.string()), askedBy: z.string() }).optional(),
      }),
    )
    .default([]),
  /** Agents whose runtime waits for a person (a permission prompt, the next prompt, a question), oldest first, as their hooks said. */
  waitingForPerson: z
    .array(z.object({ callsign: z.string(), runtime: z.string(), reason: z.enum(['permission', 'input', 'question']), message: z.string(), tool: z.string().optional(), since: z.iso.datetime() }))
    .default([]),
  /** The train in the window (DESIGN §14): what landed (by whom, how long after its accept), RED builds, conflicts hit, items it could not land. */
  integration: z
    .object({
      landed: z.array(z.object({ id: z.string(), title: z.string(), by: z.string(), commit: z.string(), acceptToLandedMs: z.number().optional() })),
      landedPerAgent: z.record(z.string(), z.number().int()),
      redBuilds: z.number().int(),
      conflicts: z.number().int(),
      failed: z.array(z.object({ id: z.string(), reason: z.string() })),
    })
    .default({ landed: [], landedPerAgent: {}, redBuilds: 0, conflicts: 0, failed: [] }),
  /** Open items that have spent rounds of their rework or clarification budget. */
  budgetsSpent: z.array(budgetUseSchema).default([]),
  /** Merge conflicts forecast (found or cleared) during the window (at most MAX_DIGEST_VIOLATIONS), between two live branches or one and the target (DESIGN §14). */
  forecasts: z.array(z.object({ status: z.enum(['conflict', 'cleared']), agent: z.string(), other: z.string(), paths: z.array(z.string()), at: z.iso.datetime() })).default([]),
  /** How many forecast conflicts hold at the window's end. */
  openForecastConflicts: z.number().int().default(0),
  /** Write-sets the scope's integrator could not compare with other branches at the window's end, and why (at most MAX_DIGEST_VIOLATIONS; DESIGN §14). */
  notCompared: z.array(z.object({ callsign: z.string(), branch: z.string().optional(), reason: z.string() })).default([]),
  /** How many write-sets were not compared at the window's end (the list above may stop before). */
  notComparedCount: z.number().int().default(0),
  eventCount: z.number().int(),
});
export type Digest = z.infer<typeof digestSchema>;

/** A digest lists this many of a window's violations; the count beyond it is still whole. */
export const MAX_DIGEST_VIOLATIONS = 50;
