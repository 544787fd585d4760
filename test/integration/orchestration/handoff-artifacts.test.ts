// Seed 001's handoff artifacts as records of their own, driven the way agents drive them: builder,
// verifier and RTE each through the official MCP client against `fleet mcp`, the operator from the
// terminal. Every artifact has an id, schema version, producer, time, source refs and fingerprint,
// and reads back by its id; decisions cite existing artifacts; a question past the budget carries
// its question, context and options to the operator, whose answer returns the item to where it waited.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Loose } from '../../support/mcp-agent.js';
import { runCli } from '../../support/run-cli.js';
import { artifact, assertRecord, CRITERIA, fleet, plan, verdicts } from './handoff-fleet.js';

test('every handoff artifact is a record: id, schema version, producer (the plane for guidance and verification requests), time, source refs, fingerprint, readable by id', async (t) => {
  const { home, repo, head, operator, bolt, vera, rita } = await fleet(t);
  const id: string = (await operator('work', 'add', 'nested list parser', ...CRITERIA.flatMap((c) => ['--criterion', c]), '--path', 'src/parser.ts')).item.id;

  const pulled = await bolt.ok('fleet_work_pull');
  assert.equal(pulled.item.id, id);
  const guidance = pulled.guidance;
  assertRecord(guidance, 'GuidancePacket', { workItem: id, role: 'orchestrator', by: 'plane' });
  assert.deepEqual(guidance.sourceRefs, [head], 'the guidance rests on the commit its covenant was read at');

  await bolt.ok('fleet_work_update', { id, action: 'plan', plan });
  const asked = await bolt.ok('fleet_work_update', {
    id,
    action: 'clarify',
    question: 'Should a trailing comma in a nested list be an error or a warning?',
    context: 'The old parser accepted them; two callers in src/config rely on that.',
    confidence: 'low',
    options: ['error', 'warning'],
  });
  const requestId: string = asked.clarificationId;
  await rita.ok('fleet_work_update', { id, action: 'answer', requestId, chosen: 'error', rationale: 'the spec says so', updatedConstraints: ['fix the two callers'] });
  assert.equal((await bolt.ok('fleet_work_update', { id, action: 'complete', artifact })).item.status, 'review');

  const inReview = (await vera.ok('fleet_work_pull')).item;
  const [request, response] = [inReview.clarifications[0].request, inReview.clarifications[0].response];
  assertRecord(inReview.plan, 'BuildPlan', { workItem: id, role: 'builder', by: 'BOLT' });
  assert.deepEqual(inReview.plan.sourceRefs, [guidance.artifactId, head], 'the plan rests on the guidance and the start commit');
  assertRecord(request, 'ClarificationRequest', { workItem: id, role: 'builder', by: 'BOLT' });
  assert.equal(request.artifactId, requestId);
  assert.equal(request.context, 'The old parser accepted them; two callers in src/config rely on that.');
  assert.equal(request.confidence, 'low');
  assert.ok(request.sourceRefs.includes(inReview.plan.artifactId), 'the question rests on the plan it is about');
  assertRecord(response, 'ClarificationResponse', { workItem: id, role: 'rte', by: 'RITA' });
  assert.deepEqual(response.sourceRefs, [requestId]);
  assertRecord(inReview.artifact, 'BuildArtifact', { workItem: id, role: 'builder', by: 'BOLT' });
  assert.deepEqual(inReview.artifact.sourceRefs, [guidance.artifactId, head, inReview.plan.artifactId, response.artifactId], 'the build rests on guidance, start commit, plan and the answer');
  assertRecord(inReview.verificationRequest, 'VerificationRequest', { workItem: id, role: 'orchestrator', by: 'plane' });
  assert.deepEqual(inReview.verificationRequest.sourceRefs, [inReview.artifact.artifactId, inReview.plan.artifactId]);

  await vera.ok('fleet_work_update', { id, action: 'verify', report: { verdicts: verdicts('pass') } });
  const report = (await operator('work', 'show', id)).item.report;
  assertRecord(report, 'VerificationReport', { workItem: id, role: 'verifier', by: 'VERA' });
  assert.ok(report.sourceRefs.includes(inReview.verificationRequest.artifactId) && report.sourceRefs.includes(inReview.artifact.artifactId), 'the report rests on the request and the build');

  // Invariant 8: the RTE's accept cites the report, and only artifacts that exist.
  const bare = await rita.call('fleet_work_update', { id, action: 'decide', decision: { disposition: 'accept', reasonCode: 'criteria-met' } });
  assert.equal(bare.isError, true, 'an accept without refs is refused');
  assert.match(bare.text, new RegExp(`verification report: cite ${report.artifactId} in decision.refs`));
  const unknown = await rita.call('fleet_work_update', { id, action: 'decide', decision: { disposition: 'accept', reasonCode: 'criteria-met', refs: [report.artifactId, 'vr-made-up'] } });
  assert.equal(unknown.isError, true, 'an accept citing an unknown id is refused');
  assert.match(unknown.text, /decision\.refs names vr-made-up, which is no artifact/);
  assert.equal((await operator('work', 'show', id)).item.status, 'verified', 'refused decisions change nothing');
  await rita.ok('fleet_work_update', { id, action: 'decide', decision: { disposition: 'accept', reasonCode: 'criteria-met', refs: [report.artifactId] } });
  const decision = (await operator('work', 'show', id)).item.decision;
  assertRecord(decision, 'OrchestratorDecision', { workItem: id, role: 'rte', by: 'RITA' });
  assert.deepEqual(decision.sourceRefs, [report.artifactId]);

  // Each reads back by its id: over MCP (fleet_agent_resume) and from the terminal.
  const all = [guidance, inReview.plan, request, response, inReview.artifact, inReview.verificationRequest, report, decision];
  assert.equal(new Set(all.map((a) => a.fingerprint)).size, all.length, 'different content, different fingerprints');
  for (const expected of all) {
    const { artifact: overMcp } = await bolt.ok('fleet_agent_resume', { artifact: expected.artifactId });
    assert.deepEqual(overMcp, expected, `${expected.kind} ${expected.artifactId} over MCP`);
    assert.deepEqual((await operator('work', 'artifact', expected.artifactId)).artifact, expected, `${expected.kind} from the CLI`);
  }
  const human = await runCli(['work', 'artifact', decision.artifactId], { home, cwd: repo });
  assert.match(human.stdout, new RegExp(`${decision.artifactId}: OrchestratorDecision \\(schema version 1\\) of ${id}\n  produced by RITA \\(rte\\) at .*\n  rests on: ${report.artifactId}`));
  const missing = await bolt.call('fleet_agent_resume', { artifact: 'vr-nope' });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /no artifact vr-nope/);
});

test('decisions cite what they rest on: a rework cites the failing report; the operator may give a commit or a note instead; fleet_work_add takes budgets', async (t) => {
  const { operator, operatorFails, bolt, vera, rita } = await fleet(t);
  const added = await rita.ok('fleet_work_add', { title: 'flaky parser', criteria: CRITERIA, budgets: { reworkRounds: 1, clarificationRounds: 0 } });
  const id: string = added.item.id;
  assert.deepEqual((await operator('work', 'show', id)).item.budgets, { reworkRounds: 1, clarificationRounds: 0 }, 'the item keeps the budgets it was added with');
  const untouched: string = (await operator('work', 'add', 'never started')).item.id;

  await bolt.ok('fleet_work_pull');
  await bolt.ok('fleet_work_update', { id, action: 'complete', artifact });
  await vera.ok('fleet_work_pull');
  await vera.ok('fleet_work_update', { id, action: 'verify', report: { verdicts: [{ criterion: CRITERIA[0], verdict: 'pass', evidence: 'ok' }, { criterion: CRITERIA[1], verdict: 'inconclusive', evidence: 'no test yet' }] } });
  const item = (await operator('work', 'show', id)).item;
  assert.equal(item.status, 'review');
  const citesPlanOnly = await rita.call('fleet_work_update', { id, action: 'decide', decision: { disposition: 'rework', reasonCode: 'needs-tests', refs: [item.verificationRequest.artifactId] } });
  assert.equal(citesPlanOnly.isError, true, 'a rework rests on the report or the build');
  assert.match(citesPlanOnly.text, new RegExp(`failing report or the build: cite one of ${item.report.artifactId}, ${item.artifact.artifactId}`));
  await rita.ok('fleet_work_update', { id, action: 'decide', decision: { disposition: 'rework', reasonCode: 'needs-tests', refs: [item.report.artifactId] } });

  // The operator: a note or a commit will do, an unknown id will not.
  assert.match(await operatorFails('work', 'decide', untouched, '--disposition', 'rollback', '--reason', 'not-needed'), /cite artifacts or a commit in decision\.refs, or give a note/);
  assert.match(await operatorFails('work', 'decide', untouched, '--disposition', 'rollback', '--reason', 'not-needed', '--ref', 'ba-nope'), /ba-nope, which is no artifact or commit hash/);
  const rolledBack = await operator('work', 'decide', untouched, '--disposition', 'rollback', '--reason', 'not-needed', '--ref', 'c0ffee1234');
  assert.equal(rolledBack.item.status, 'rolled_back');
});

test('a question past the clarification budget carries its question, context and options to the operator, who answers it by number; the item returns to its builder', async (t) => {
  const { home, repo, operator, bolt, vera, rita } = await fleet(t);
  await operator('work', 'configure', '--clarifications', '1');
  const id: string = (await operator('work', 'add', 'nested list parser', ...CRITERIA.flatMap((c) => ['--criterion', c]), '--path', 'src/parser.ts')).item.id;
  await bolt.ok('fleet_work_pull');
  await bolt.ok('fleet_work_update', { id, action: 'plan', plan });
  const first = await bolt.ok('fleet_work_update', { id, action: 'clarify', question: 'Keep the old API?', context: 'callers in src/config use it', confidence: 'low', options: ['yes', 'no'] });
  await rita.ok('fleet_work_update', { id, action: 'answer', requestId: first.clarificationId, chosen: 'yes', rationale: 'callers' });
  const question = 'Error or warning on a trailing comma?';
  const context = 'Two callers in src/config rely on the old leniency.';
  const second = await bolt.ok('fleet_work_update', { id, action: 'clarify', question, context, confidence: 'medium', options: ['error', 'warning', 'error behind a flag'] });
  assert.equal(second.item.status, 'escalated', 'past the budget the question goes to the operator');

  const { digest, markdown } = await vera.ok('fleet_digest');
  assert.deepEqual(digest.escalations, [
    { id, title: 'nested list parser', budget: 'clarification', spent: 1, limit: 1, by: 'BOLT', question: { requestId: second.clarificationId, question, context, confidence: 'medium', options: ['error', 'warning', 'error behind a flag'], askedBy: 'BOLT' } },
  ]);
  assert.ok(markdown.includes(`BOLT asks: ${question} (context: ${context}) (medium confidence going on without an answer)\n  1. error\n  2. warning\n  3. error behind a flag\n  answer with \`fleet work answer ${id} --option N --rationale WHY\``), markdown);

  const shown = (await runCli(['work', 'show', id], { home, cwd: repo })).stdout;
  for (const line of [`question ${second.clarificationId} from BOLT: ${question}`, `context: ${context}`, 'confidence: medium', '1. error', '2. warning', '3. error behind a flag', `answer: fleet work answer ${id} --option N --rationale WHY (returns it to in_progress)`]) {
    assert.ok(shown.includes(line), `fleet work show shows "${line}":\n${shown}`);
  }
  const status = (await runCli(['status'], { home, cwd: repo })).stdout;
  assert.ok(status.includes(`waiting for the operator (1 escalated)\n${id}: nested list parser\n`) && status.includes(`question ${second.clarificationId} from BOLT: ${question}`), `fleet status shows the question:\n${status}`);
  const resumed = await bolt.ok('fleet_agent_resume');
  assert.deepEqual(resumed.work.map((w: Loose) => [w.id, w.status, w.escalation?.question?.question]), [[id, 'escalated', question]], 'the builder sees what it waits on');
  assert.deepEqual(resumed.rounds, [{ id, title: 'nested list parser', reworkRounds: 0, reworkLimit: 3, clarificationRounds: 1, clarificationLimit: 1 }]);

  const answered = await operator('work', 'answer', id, '--option', '3', '--rationale', 'keep the callers working this release');
  assert.equal(answered.item.status, 'in_progress', 'the answer returns the item to the status it waited in');
  const item = (await operator('work', 'show', id)).item;
  assert.equal(item.assignee, 'BOLT');
  assert.equal(item.escalation, undefined);
  assert.deepEqual(item.clarifications.map((c: Loose) => [c.request.question, c.response?.chosen, c.response?.producedByRole]), [['Keep the old API?', 'yes', 'rte'], [question, 'error behind a flag', 'operator']]);
  assert.equal((await bolt.ok('fleet_work_update', { id, action: 'complete', artifact })).item.status, 'review', 'its builder goes on where it stopped');
});

test('fleet_agent_resume shows the builder its work sent back for rework, with the plan, the failing report and the rounds spent', async (t) => {
  const { operator, bolt, vera } = await fleet(t);
  const id: string = (await operator('work', 'add', 'nested list parser', ...CRITERIA.flatMap((c) => ['--criterion', c]))).item.id;
  await bolt.ok('fleet_work_pull');
  await bolt.ok('fleet_work_update', { id, action: 'plan', plan });
  await bolt.ok('fleet_work_update', { id, action: 'complete', artifact });
  await vera.ok('fleet_work_pull');
  assert.equal((await vera.ok('fleet_work_update', { id, action: 'verify', report: { verdicts: verdicts('fail') } })).item.status, 'rework');
  const { work, rounds } = await bolt.ok('fleet_agent_resume');
  assert.deepEqual(work.map((w: Loose) => [w.id, w.status]), [[id, 'rework']]);
  assert.deepEqual(work[0].plan.coverage, plan.coverage, 'its plan');
  assert.deepEqual(work[0].report.verdicts.map((v: Loose) => v.verdict), ['fail', 'fail'], 'the report that sent it back');
  assert.deepEqual(rounds, [{ id, title: 'nested list parser', reworkRounds: 1, reworkLimit: 3, clarificationRounds: 0, clarificationLimit: 3 }]);
});
