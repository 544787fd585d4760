// Seed 001 (the multi-agent handoff protocol) checked as its author would: the whole lifecycle driven
// through `fleet mcp` with the official MCP client (builder, verifier, RTE), the operator on the CLI.
// Every artifact carries what the seed says it "must include", reads back by its id, and the
// protocol's invariants 1–9 hold.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ArtifactKind } from '../../../contracts/index.js';
import type { Loose, McpAgent } from '../../support/mcp-agent.js';
import { runCli } from '../../support/run-cli.js';
import { artifact, assertRecord, CRITERIA, fleet, plan, verdicts, type Fleet } from './handoff-fleet.js';

/** What the seed says each artifact must include, beyond the fields every artifact has. */
const SEED_REQUIRES: Record<ArtifactKind, (a: Loose, item: Loose) => void> = {
  GuidancePacket: (a) => {
    assert.ok(Number.isInteger(a.version) && a.version > 0, 'covenant_version');
    assert.match(a.policyHash, /^sha256:[0-9a-f]{64}$/, 'policy_hash');
    assert.ok((a.roleConstraints ?? []).length > 0, 'role-specific constraints');
    assert.ok((a.stopConditions ?? []).length > 0, 'stop conditions');
  },
  BuildPlan: (a, item) => {
    assert.ok(a.intendedFiles.length > 0, 'intended file targets');
    assert.ok(a.validationPlan.length > 0, 'validation plan');
    assert.deepEqual(Object.keys(a.coverage).sort(), [...item.criteria].sort(), 'acceptance-criterion coverage map');
    assert.ok(Number.isInteger(a.budgets?.reworkRounds) && Number.isInteger(a.budgets?.clarificationRounds), 'budget envelope: the rounds it runs under');
  },
  BuildArtifact: (a) => {
    assert.ok(a.touchedFiles.length > 0, 'actual touched files');
    assert.ok(Array.isArray(a.diffSummary?.files) && a.diffSummary.since, 'diff summary, as git sees the worktree');
    for (const c of a.commands) assert.ok(c.command && Number.isInteger(c.exitCode) && c.evidence, `command ledger entry ${JSON.stringify(c)}: command, exit code, evidence ref`);
    assert.ok(a.criteria.length > 0, 'criterion coverage claims');
    assert.ok(a.workItem, 'the completion marker payload (<waypoint-complete>{waypoint_id}) is the item');
  },
  VerificationRequest: (a, item) => {
    assert.deepEqual(a.criteria, item.criteria, 'criteria under review');
    assert.deepEqual(a.expectedEvidence.map((e: Loose) => e.criterion), item.criteria, 'expected evidence set, one per criterion');
    assert.ok((a.verifierConstraints ?? []).length > 0, 'policy constraints applied to the verifier');
  },
  VerificationReport: (a, item) => {
    assert.deepEqual(a.verdicts.map((v: Loose) => v.criterion).sort(), [...item.criteria].sort(), 'a verdict per criterion');
    for (const v of a.verdicts) assert.ok(['pass', 'fail', 'inconclusive'].includes(v.verdict) && v.evidence, 'verdict and evidence references');
  },
  ClarificationRequest: (a) => {
    assert.ok(a.question, 'blocking question');
    assert.ok(a.context, 'decision context');
    assert.ok(['low', 'medium', 'high'].includes(a.confidence), 'confidence level');
    assert.ok(a.options.length > 0, 'requested options');
  },
  ClarificationResponse: (a) => {
    assert.ok(a.chosen, 'chosen option/answer');
    assert.ok(a.rationale, 'rationale');
    assert.ok(Array.isArray(a.updatedConstraints), 'updated constraints');
  },
  OrchestratorDecision: (a) => {
    assert.ok(['accept', 'rework', 'rollback', 'escalate'].includes(a.disposition), 'disposition');
    assert.ok(a.reasonCode, 'reason code');
    assert.ok((a.refs ?? []).length > 0, 'referenced artifact ids (invariant 8)');
    assert.ok(a.statusMutation?.from && a.statusMutation?.to, 'status mutation');
  },
};

/** Checks an artifact against the seed, and that it reads back by its id over MCP as it is. */
async function conforms(agent: McpAgent, kind: ArtifactKind, a: Loose | undefined, item: Loose, producer: { role: string; by: string }): Promise<void> {
  assert.ok(a, `${item.id} (${item.status}) holds its ${kind}`);
  assertRecord(a, kind, { workItem: item.id, ...producer });
  SEED_REQUIRES[kind](a, item);
  assert.deepEqual((await agent.ok('fleet_agent_resume', { artifact: a.artifactId })).artifact, a, `${a.kind} ${a.artifactId} reads back by its id`);
}

const show = async (f: Fleet, id: string): Promise<Loose> => (await f.operator('work', 'show', id)).item;
const ask = (question: string) => ({ question, context: 'two callers in src/config rely on the old leniency', confidence: 'low', options: ['error', 'warning'] });

test('seed 001: guidance → plan → clarification → build → verification request → report → decision, every artifact as the seed asks, invariants 1–3 and 5–9', async (t) => {
  const f = await fleet(t);
  const { bolt, vera, rita } = f;
  const id: string = (await f.operator('work', 'add', 'nested list parser', ...CRITERIA.flatMap((c) => ['--criterion', c]), '--path', 'src/parser.ts')).item.id;
  const builder = { role: 'builder', by: 'BOLT' };
  const plane = { role: 'orchestrator', by: 'plane' };

  // 1. The orchestrator attaches guidance to the builder's turn (invariant 6), telling it to ask rather than guess (7).
  const pulled = await bolt.ok('fleet_work_pull');
  await conforms(bolt, 'GuidancePacket', pulled.guidance, pulled.item, plane);
  assert.ok(pulled.guidance.roleConstraints.some((c: string) => /clarify/.test(c)), 'the builder is told to ask when unsure (invariant 7)');
  assert.deepEqual((await bolt.ok('fleet_agent_resume')).guidance, [pulled.guidance], 'a turn resumed after a lost context gets its guidance too');

  // 2–3. The builder plans, asks before a high-impact choice, and an RTE answers.
  await bolt.ok('fleet_work_update', { id, action: 'plan', plan });
  const bareQuestion = await bolt.call('fleet_work_update', { id, action: 'clarify', question: 'Error or warning on a trailing comma?', options: ['error', 'warning'] });
  assert.equal(bareQuestion.isError, true, 'a ClarificationRequest must include its decision context and confidence');
  assert.match(bareQuestion.text, /INVALID_PARAMS/);
  assert.match(bareQuestion.text, /add context \(what is being decided and what depends on the answer\)/);
  assert.match(bareQuestion.text, /add confidence \(low, medium or high\)/);
  const asked = await bolt.ok('fleet_work_update', { id, action: 'clarify', ...ask('Error or warning on a trailing comma?') });
  assert.deepEqual((await show(f, id)).blockedBy, [asked.clarificationId], 'the question blocks the item');
  await rita.ok('fleet_work_update', { id, action: 'answer', requestId: asked.clarificationId, chosen: 'error', rationale: 'the grammar says so', updatedConstraints: ['fix the two callers'] });

  // Invariant 1: only the orchestrator's side (RTE, operator) decides; invariant 5: completion alone finalizes nothing.
  writeFileSync(join(f.repo, 'src/parser.ts'), 'export const parse = (text: string) => {\n  return JSON.parse(text);\n};\n');
  writeFileSync(join(f.repo, 'src/grammar.ts'), 'export const grammar = {};\n');
  const completed = await bolt.ok('fleet_work_update', { id, action: 'complete', artifact });
  assert.equal(completed.item.status, 'review', 'the completion marker hands off, it does not finish');
  const build: string = (await show(f, id)).artifact.artifactId;
  for (const [who, agent] of [['builder', bolt], ['verifier', vera]] as const) {
    const refused = await agent.call('fleet_work_update', { id, action: 'decide', decision: { disposition: 'accept', reasonCode: 'self-approved', refs: [build] } });
    assert.equal(refused.isError, true, `the ${who} cannot decide`);
    assert.match(refused.text, /FORBIDDEN/);
  }

  // 4–6. The verifier gets guidance of its own and the request; it cannot write (invariant 2); it must show evidence for every criterion (3).
  const review = await vera.ok('fleet_work_pull');
  await conforms(vera, 'GuidancePacket', review.guidance, review.item, plane);
  assert.ok(review.guidance.roleConstraints.some((c: string) => /clarify/.test(c)), 'the verifier is told to ask when unsure (invariant 7)');
  assert.notEqual(review.guidance.artifactId, pulled.guidance.artifactId, 'each role turn has its own guidance');
  const claim = await vera.call('fleet_claim_path', { patterns: ['src/parser.ts'] });
  assert.equal(claim.isError, true, 'a verifier cannot claim territory to write in');
  assert.match(claim.text, /verifiers read and test, they do not write/);
  const partial = await vera.call('fleet_work_update', { id, action: 'verify', report: { verdicts: verdicts('pass').slice(0, 1) } });
  assert.equal(partial.isError, true, 'a report without a verdict for every criterion is refused');
  assert.match(partial.text, new RegExp(`missing: ${CRITERIA[1]}`));
  const noEvidence = await vera.call('fleet_work_update', { id, action: 'verify', report: { verdicts: CRITERIA.map((criterion) => ({ criterion, verdict: 'pass', evidence: '' })) } });
  assert.equal(noEvidence.isError, true, 'a verdict without evidence is refused');

  // Invariant 7 for the verifier: a doubt about the evidence threshold is a question, and invariant 9: while it is open, nothing completes.
  const doubt = await vera.ok('fleet_work_update', { id, action: 'clarify', question: 'Is a warning on stderr evidence enough for "rejects trailing commas"?', context: 'the test asserts the message, not the exit code', confidence: 'medium', options: ['enough', 'assert the exit code too'] });
  await vera.ok('fleet_work_update', { id, action: 'verify', report: { verdicts: verdicts('pass'), doubts: ['the exit code is not asserted'] } });
  let item = await show(f, id);
  assert.equal(item.status, 'verified');
  const early = await rita.call('fleet_work_update', { id, action: 'decide', decision: { disposition: 'accept', reasonCode: 'criteria-met', refs: [item.report.artifactId] } });
  assert.equal(early.isError, true, 'an open clarification keeps the item from done (invariant 9)');
  assert.match(early.text, new RegExp(`unresolved clarification requests: ${doubt.clarificationId}`));
  assert.equal((await show(f, id)).status, 'verified');
  await rita.ok('fleet_work_update', { id, action: 'answer', requestId: doubt.clarificationId, chosen: 'enough', rationale: 'the message is the contract' });

  // 7. The decision (invariant 8: a reason code and the artifacts it rests on).
  const bare = await rita.call('fleet_work_update', { id, action: 'decide', decision: { disposition: 'accept', reasonCode: 'criteria-met' } });
  assert.equal(bare.isError, true, 'an accept citing nothing is refused');
  await rita.ok('fleet_work_update', { id, action: 'decide', decision: { disposition: 'accept', reasonCode: 'criteria-met', refs: [item.report.artifactId] } });
  item = await show(f, id);
  assert.equal(item.status, 'done');
  assert.deepEqual(item.decision.statusMutation, { from: 'verified', to: 'done' }, 'the decision records the status mutation it applied');

  const [first, second] = item.clarifications;
  await conforms(bolt, 'BuildPlan', item.plan, item, builder);
  assert.deepEqual(item.plan.budgets, { reworkRounds: 3, clarificationRounds: 3 }, 'the plan runs under the item\'s budgets');
  await conforms(bolt, 'ClarificationRequest', first.request, item, builder);
  await conforms(bolt, 'ClarificationResponse', first.response, item, { role: 'rte', by: 'RITA' });
  await conforms(bolt, 'ClarificationRequest', second.request, item, { role: 'verifier', by: 'VERA' });
  await conforms(bolt, 'ClarificationResponse', second.response, item, { role: 'rte', by: 'RITA' });
  await conforms(bolt, 'BuildArtifact', item.artifact, item, builder);
  assert.deepEqual(item.artifact.diffSummary, { since: f.head, files: [{ path: 'src/parser.ts', added: 3, removed: 1 }, { path: 'src/grammar.ts', untracked: true }], more: 0 }, 'what git says changed, beside what the builder says it touched');
  await conforms(bolt, 'VerificationRequest', item.verificationRequest, item, plane);
  await conforms(bolt, 'VerificationReport', item.report, item, { role: 'verifier', by: 'VERA' });
  assert.deepEqual(item.report.doubts, ['the exit code is not asserted'], 'unresolved doubts are kept');
  await conforms(bolt, 'OrchestratorDecision', item.decision, item, { role: 'rte', by: 'RITA' });
  assert.ok(item.artifact.sourceRefs.includes(first.response.artifactId), 'the build rests on the answer it was given');
});

test('seed 001: a failed verification is an orchestrator decision to rework; the next turn carries guidance; past the rework budget the orchestrator escalates with a reason code and references', async (t) => {
  const f = await fleet(t);
  const { bolt, vera } = f;
  const id: string = (await f.rita.ok('fleet_work_add', { title: 'flaky parser', criteria: CRITERIA, budgets: { reworkRounds: 1 } })).item.id;
  const plane = { role: 'orchestrator', by: 'plane' };

  const turn = async () => {
    const pulled = await bolt.ok('fleet_work_pull');
    assert.equal(pulled.item?.id, id);
    await conforms(bolt, 'GuidancePacket', pulled.guidance, pulled.item, plane);
    await bolt.ok('fleet_work_update', { id, action: 'complete', artifact });
    await vera.ok('fleet_work_pull');
    await vera.ok('fleet_work_update', { id, action: 'verify', report: { verdicts: verdicts('fail') } });
    return show(f, id);
  };
  let item = await turn();
  assert.equal(item.status, 'rework');
  await conforms(bolt, 'OrchestratorDecision', item.decision, item, plane);
  assert.deepEqual([item.decision.disposition, item.decision.refs, item.decision.statusMutation], ['rework', [item.report.artifactId], { from: 'review', to: 'rework' }], 'the rework rests on the failing report');
  const reworkDecision = item.decision.artifactId;

  item = await turn(); // the builder's next turn: guidance again (invariant 6), then a second failure
  assert.ok(item.artifact.sourceRefs.includes(reworkDecision), 'the rework build rests on the decision that sent it back');
  assert.equal(item.status, 'escalated', 'past the rework budget');
  await conforms(bolt, 'OrchestratorDecision', item.decision, item, plane);
  assert.deepEqual([item.decision.disposition, item.decision.reasonCode, item.decision.refs], ['escalate', 'rework-budget-spent', [item.report.artifactId]]);
});

test('seed 001: a question past the clarification budget is an escalation with a reason code, the question and its options; a rollback the plane cannot apply says how to apply it (invariant 4)', async (t) => {
  const f = await fleet(t);
  const { bolt, vera, rita } = f;
  const id: string = (await rita.ok('fleet_work_add', { title: 'nested list parser', criteria: CRITERIA, budgets: { clarificationRounds: 0 } })).item.id;
  await bolt.ok('fleet_work_pull');
  const asked = await bolt.ok('fleet_work_update', { id, action: 'clarify', ...ask('Keep the old API?') });
  let item = await show(f, id);
  assert.equal(item.status, 'escalated');
  await conforms(bolt, 'ClarificationRequest', item.escalation.question, item, { role: 'builder', by: 'BOLT' });
  await conforms(bolt, 'OrchestratorDecision', item.decision, item, { role: 'orchestrator', by: 'plane' });
  assert.deepEqual([item.decision.disposition, item.decision.reasonCode, item.decision.refs], ['escalate', 'clarification-budget-spent', [asked.clarificationId]]);
  const { digest } = await vera.ok('fleet_digest');
  assert.deepEqual(digest.escalations.map((e: Loose) => e.question?.options), [['error', 'warning']], 'the operator gets the explicit options');

  await f.operator('work', 'answer', id, '--option', '1', '--rationale', 'callers first');
  assert.deepEqual((await bolt.ok('fleet_agent_resume')).guidance.map((g: Loose) => [g.workItem, g.issuedTo]), [[id, 'BOLT']], 'the builder goes on under the guidance it pulled the item with');
  await bolt.ok('fleet_work_update', { id, action: 'complete', artifact });
  await vera.ok('fleet_work_pull');
  await vera.ok('fleet_work_update', { id, action: 'verify', report: { verdicts: verdicts('fail') } });
  item = await show(f, id);
  await rita.ok('fleet_work_update', { id, action: 'decide', decision: { disposition: 'rollback', reasonCode: 'regression', refs: [item.report.artifactId] } });
  item = await show(f, id);
  assert.equal(item.status, 'rolled_back');
  await conforms(bolt, 'OrchestratorDecision', item.decision, item, { role: 'rte', by: 'RITA' });
  assert.equal(item.decision.rollbackRef, f.head, 'the rollback reference is the commit the build started from');
  assert.match(item.decision.remediation ?? '', new RegExp(`git checkout ${f.head} -- src/parser\\.ts`), 'the plane does not undo a shared checkout itself: the decision says how (invariant 4)');
  const shown = (await runCli(['work', 'show', id], { home: f.home, cwd: f.repo })).stdout;
  assert.ok(shown.includes(`  rollback to ${f.head}: ${item.decision.remediation}`), `fleet work show tells the operator how to apply it:\n${shown}`);
});

test('seed 001, invariant 8 for every disposition: an RTE cites the guidance an item was pulled with when nothing else exists yet, and leaves an item never pulled to the operator', async (t) => {
  const f = await fleet(t);
  const { bolt, rita } = f;
  const started: string = (await rita.ok('fleet_work_add', { title: 'started' })).item.id;
  const untouched: string = (await rita.ok('fleet_work_add', { title: 'never pulled' })).item.id;
  const { guidance } = await bolt.ok('fleet_work_pull');
  assert.equal(guidance.workItem, started);

  const bare = await rita.call('fleet_work_update', { id: started, action: 'decide', decision: { disposition: 'escalate', reasonCode: 'scope-unclear' } });
  assert.equal(bare.isError, true, 'an escalation citing nothing is refused');
  assert.match(bare.text, new RegExp(`an artifact of the item: cite ${guidance.artifactId} in decision\\.refs`));
  await rita.ok('fleet_work_update', { id: started, action: 'decide', decision: { disposition: 'escalate', reasonCode: 'scope-unclear', refs: [guidance.artifactId] } });
  const item = await show(f, started);
  await conforms(bolt, 'OrchestratorDecision', item.decision, item, { role: 'rte', by: 'RITA' });
  assert.deepEqual(item.decision.statusMutation, { from: 'in_progress', to: 'escalated' });

  const nothing = await rita.call('fleet_work_update', { id: untouched, action: 'decide', decision: { disposition: 'rollback', reasonCode: 'not-needed' } });
  assert.equal(nothing.isError, true, 'an RTE decision on an item with nothing to cite, citing nothing, is refused');
  assert.match(nothing.text, /has no artifact to rest a rollback on \(it was never pulled\): .*leave it to the operator, who may decide with a note/);
  assert.equal((await f.operator('work', 'decide', untouched, '--disposition', 'rollback', '--reason', 'not-needed', '--note', 'superseded by the parser rewrite')).item.status, 'rolled_back');
});
