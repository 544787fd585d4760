import { createHash } from 'node:crypto';
import type { CovenantFile, GuidancePacket, Role, WorkSettings } from '../../contracts/index.js';
import type { Ctx } from './context.js';
import type { AgentRecord, State } from './state.js';
import { fingerprintOf, guidanceId, ORCHESTRATOR, seal } from './work-artifacts.js';

/** What the plane read from a worktree (git, outside the core): its HEAD and covenant files' blob hashes. */
export interface WorktreeFacts {
  worktree?: string;
  head?: string;
  covenant: CovenantFile[];
}

/** Invariant 7 of the handoff protocol: doubt is raised, never settled silently. */
const ASK = 'Unsure how a rule, criterion or constraint applies? Ask (fleet_work_update action clarify, with the context, your confidence and the options) instead of deciding on low confidence.';

const BUILDING = [
  'Claim paths before writing; write only inside your claims.',
  'Complete with an artifact: the files you touched, the commands you ran with their exit codes, the criteria you covered.',
  'Never verify your own work.',
  ASK,
];

/** What each role may and must do, in the words the agent reads. */
const ROLE_CONSTRAINTS: Record<Role, string[]> = {
  worker: BUILDING,
  builder: BUILDING,
  verifier: ['Never verify work you built.', 'Name every criterion of the item with its verdict and evidence.', 'Do not write to the repository: verifiers judge.', ASK],
  rte: [
    'Decide with a reason code and the artifacts you rely on; accept only verified items with no open clarification.',
    'Answer a clarification with the option chosen, a rationale and any updated constraints.',
  ],
  operator: ['Escalated items wait for you: decide them, or raise their budget (fleet work configure).'],
};

/** The rules of a role, as its guidance packets and the verification requests (the verifier's) state them. */
export function roleConstraintsOf(role: Role): string[] {
  return ROLE_CONSTRAINTS[role];
}

function stopConditions(settings: WorkSettings): string[] {
  return [
    'The fleet switch is not run: start nothing new (pause: stop at a safe point; stop: end now).',
    `An item escalates to the operator after ${settings.reworkRounds} rework rounds: then stop working on it.`,
    `An item escalates to the operator after ${settings.clarificationRounds} clarification rounds.`,
    'An escalated, done or rolled-back item is not yours to continue.',
    ...(settings.planRequired ? ['Submit a plan (fleet_work_update action plan) before completing.'] : []),
  ];
}

/**
 * The guidance packet for an agent's pull. The policy hash covers the covenant, every role's
 * constraints and the stop conditions; when it differs from the one last seen for the worktree the
 * version grows (a `work.guidance` event), so the next pull shows that the rules changed. The
 * packet is an artifact the plane produces; the same rules for the same agent and item are one
 * packet (its id is derived from its content), recorded once (`work.guided`).
 */
export function guidanceFor(ctx: Ctx, agent: AgentRecord, facts: WorktreeFacts, workItem: string | undefined): GuidancePacket {
  const stops = stopConditions(ctx.state.workSettings);
  const covenant = [...facts.covenant].sort((a, b) => a.path.localeCompare(b.path));
  const policyHash = `sha256:${createHash('sha256').update(JSON.stringify({ covenant, roles: ROLE_CONSTRAINTS, stops })).digest('hex')}`;
  const key = facts.worktree ?? '';
  let seen = ctx.state.guidance.get(key);
  if (seen?.policyHash !== policyHash) {
    ctx.emit({ type: 'work.guidance', by: agent.callsign, worktree: key, version: (seen?.version ?? 0) + 1, policyHash });
    seen = ctx.state.guidance.get(key)!;
  }
  const content = {
    version: seen.version,
    policyHash,
    ...(facts.worktree !== undefined && { worktree: facts.worktree }),
    ...(facts.head !== undefined && { head: facts.head }),
    covenant,
    roleConstraints: roleConstraintsOf(agent.role),
    stopConditions: stops,
    issuedTo: agent.callsign,
  };
  // The item is a record field, outside the content's fingerprint, but part of what makes a packet this one.
  const id = guidanceId(fingerprintOf({ content, workItem: workItem ?? null }));
  const issued = ctx.state.guidancePackets.get(id);
  if (issued) return issued;
  const packet = seal(ctx, 'GuidancePacket', content, { ...(workItem !== undefined && { workItem }), producer: ORCHESTRATOR, sourceRefs: [facts.head], id });
  ctx.emit({ type: 'work.guided', by: 'plane', packet });
  return packet;
}

/** The packet an agent was last given with the item: what its later artifacts about the item rest on. */
export function latestGuidanceRef(state: State, workItem: string, callsign: string): string | undefined {
  let latest: string | undefined;
  for (const packet of state.guidancePackets.values()) if (packet.workItem === workItem && packet.issuedTo === callsign) latest = packet.artifactId;
  return latest;
}
