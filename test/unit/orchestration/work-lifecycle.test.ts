import assert from 'node:assert/strict';
import { test } from 'node:test';
import { updateWork } from '../../../server/core/work-lifecycle.js';
import { OPERATOR, SCOPE, claimNow, eventsOfType, expectRefusedUnchanged, joinAgent, makeHarness } from '../../support/core-harness.js';
import {
  add,
  artifact,
  complete,
  contentOf,
  decide,
  decision,
  handoff,
  orchestrationFleet,
  passReport,
  pull,
  report,
  respond,
  toVerified,
  verify,
  withPaths,
} from '../../support/orchestration-harness.js';

test('the full lifecycle: ready → in_progress → review → verified → done, each step by its own role', () => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  const id = add(h, { title: 'parser', criteria: ['parses', 'rejects junk'], ...withPaths(['src/parser/**']) }).id;
  assert.equal(h.core.state.work.get(id)!.status, 'ready');

  const pulled = pull(h, atlas);
  assert.equal(pulled.item?.id, id);
  assert.equal(pulled.item?.status, 'in_progress');
  assert.equal(pulled.item?.assignee, atlas.agentId);
  assert.deepEqual(pulled.claims.map((c) => c.pattern), ['src/parser/**']);

  complete(h, atlas.caller, id, ['parses', 'rejects junk']);
  const inReview = h.core.state.work.get(id)!;
  assert.equal(inReview.status, 'review');
  assert.deepEqual(contentOf(inReview.artifact), artifact(['parses', 'rejects junk']));
  assert.equal(h.core.state.claims.size, 0, 'completing hands the item territory back');

  assert.equal(pull(h, vera).item?.id, id);
  assert.equal(h.core.state.work.get(id)!.verifier, vera.agentId);
  verify(h, vera.caller, id, passReport(['parses', 'rejects junk']));
  assert.equal(h.core.state.work.get(id)!.status, 'verified');

  const reportId = h.core.state.work.get(id)!.report!.artifactId!;
  decide(h, rte.caller, id, decision('accept', 'criteria-met', [reportId]));
  const done = h.core.state.work.get(id)!;
  assert.equal(done.status, 'done');
  assert.deepEqual(contentOf(done.decision), { ...decision('accept', 'criteria-met', [reportId]), statusMutation: { from: 'verified', to: 'done' } }, 'the decision records the status mutation it applied');
  assert.equal(done.statusReason, 'criteria-met', 'the reason code is recorded');
  const statuses = eventsOfType(h.events, 'work.transitioned').filter((e) => e.itemId === id).map((e) => `${e.status}/${e.by}`);
  assert.deepEqual(statuses, ['in_progress/ATLAS', 'review/ATLAS', 'review/VERA', 'verified/VERA', 'done/RTE1']);
});

test("completing without verification: a builder's completion moves the item to review, never further", () => {
  const { h, atlas, rte } = orchestrationFleet();
  const id = add(h, { title: 't', criteria: ['c1'] }).id;
  pull(h, atlas);
  complete(h, atlas.caller, id, ['c1']);
  assert.equal(h.core.state.work.get(id)!.status, 'review');
  // Accepting work no verifier has passed is refused, for the RTE and for the operator alike.
  expectRefusedUnchanged(h, rte.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, rte.caller, id, { action: 'decide', decision: decision('accept') }));
  expectRefusedUnchanged(h, OPERATOR, 'INVALID_STATE', (ctx) => updateWork(ctx, OPERATOR, id, { action: 'decide', decision: decision('accept') }));
  assert.equal(h.core.state.work.get(id)!.status, 'review');
  // Completing twice does not move it either.
  expectRefusedUnchanged(h, atlas.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, atlas.caller, id, { action: 'complete', artifact: artifact(['c1']) }));
});

test('accept is refused on every status but verified (ready, in_progress, review, rework)', () => {
  const { h, atlas, boreas, vera, vik, rte } = orchestrationFleet();
  const inReview = add(h, { title: 'in review', criteria: ['c'] }).id;
  const inProgress = add(h, { title: 'in progress' }).id;
  const inRework = add(h, { title: 'in rework', criteria: ['c'] }).id;
  const ready = add(h, { title: 'ready', dependsOn: [inReview] }).id;
  assert.equal(pull(h, atlas).item?.id, inReview);
  complete(h, atlas.caller, inReview, ['c']);
  assert.equal(pull(h, boreas).item?.id, inProgress);
  assert.equal(pull(h, atlas).item?.id, inRework);
  complete(h, atlas.caller, inRework, ['c']);
  assert.equal(pull(h, vera).item?.id, inReview);
  assert.equal(pull(h, vik).item?.id, inRework);
  verify(h, vik.caller, inRework, report({ c: 'fail' }));
  const statuses = [ready, inProgress, inReview, inRework].map((id) => h.core.state.work.get(id)!.status);
  assert.deepEqual(statuses, ['ready', 'in_progress', 'review', 'rework']);
  for (const id of [ready, inProgress, inReview, inRework]) {
    expectRefusedUnchanged(h, rte.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, rte.caller, id, { action: 'decide', decision: decision('accept') }));
  }
});

test('only a verifier reports verdicts, and never on its own work', () => {
  const { h, atlas, boreas, vera } = orchestrationFleet();
  const id = add(h, { title: 't', criteria: ['c1'] }).id;
  pull(h, atlas);
  complete(h, atlas.caller, id, ['c1']);
  // The builder verifying its own work, and another builder verifying it, are both refused.
  expectRefusedUnchanged(h, atlas.caller, 'FORBIDDEN', (ctx) => updateWork(ctx, atlas.caller, id, { action: 'verify', report: passReport(['c1']) }));
  expectRefusedUnchanged(h, boreas.caller, 'FORBIDDEN', (ctx) => updateWork(ctx, boreas.caller, id, { action: 'verify', report: passReport(['c1']) }));
  expectRefusedUnchanged(h, OPERATOR, 'NOT_JOINED', (ctx) => updateWork(ctx, OPERATOR, id, { action: 'verify', report: passReport(['c1']) }));
  verify(h, vera.caller, id, passReport(['c1']));
  assert.equal(h.core.state.work.get(id)!.status, 'verified');
});

test('a verifier that became the assignee of an item (by a handoff) cannot verify it: verification stays independent', () => {
  const { h, atlas, vera, vik } = orchestrationFleet();
  const id = add(h, { title: 't', criteria: ['c1'] }).id;
  pull(h, atlas);
  complete(h, atlas.caller, id, ['c1']);
  const ho = handoff(h, atlas, { to: { callsign: 'VERA' }, workItem: id });
  respond(h, vera, ho.id, true);
  assert.equal(h.core.state.work.get(id)!.assignee, vera.agentId);
  assert.equal(pull(h, vera).item, null, 'a verifier never gets its own item for review');
  expectRefusedUnchanged(h, vera.caller, 'FORBIDDEN', (ctx) => updateWork(ctx, vera.caller, id, { action: 'verify', report: passReport(['c1']) }));
  assert.equal(pull(h, vik).item?.id, id);
  verify(h, vik.caller, id, passReport(['c1']));
  assert.equal(h.core.state.work.get(id)!.status, 'verified');
});

test('verdicts: any fail → rework; inconclusive → stays in review for another verifier; a report naming not every criterion is refused', () => {
  const { h, atlas, vera, vik } = orchestrationFleet();
  const id = add(h, { title: 't', criteria: ['fast', 'correct'] }).id;
  pull(h, atlas);
  complete(h, atlas.caller, id, ['fast', 'correct']);

  pull(h, vera);
  verify(h, vera.caller, id, report({ fast: 'pass', correct: 'inconclusive' }));
  let item = h.core.state.work.get(id)!;
  assert.equal(item.status, 'review');
  assert.equal(item.verifier, undefined, 'an inconclusive report frees the item for another look');

  pull(h, vik);
  const unnamed = expectRefusedUnchanged(h, vik.caller, 'INVALID_PARAMS', (ctx) => updateWork(ctx, vik.caller, id, { action: 'verify', report: report({ fast: 'pass' }) }));
  assert.match(unnamed.message, /must name every criterion.*missing: correct/);

  verify(h, vik.caller, id, report({ fast: 'pass', correct: 'fail' }));
  item = h.core.state.work.get(id)!;
  assert.equal(item.status, 'rework');
  assert.deepEqual(contentOf(item.report), report({ fast: 'pass', correct: 'fail' }));
});

test('verification is only for items in review', () => {
  const { h, atlas, vera } = orchestrationFleet();
  const ready = add(h, { title: 'ready', criteria: ['c'] }).id;
  expectRefusedUnchanged(h, vera.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, vera.caller, ready, { action: 'verify', report: passReport(['c']) }));
  pull(h, atlas);
  expectRefusedUnchanged(h, vera.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, vera.caller, ready, { action: 'verify', report: passReport(['c']) }));
});

test('rework goes back to the queue and round-trips to done', () => {
  const { h, atlas, boreas, vera, rte } = orchestrationFleet();
  const id = add(h, { title: 't', criteria: ['c1'], ...withPaths(['src/x/**']) }).id;
  pull(h, atlas);
  complete(h, atlas.caller, id, ['c1']);
  pull(h, vera);
  verify(h, vera.caller, id, report({ c1: 'fail' }));
  const again = pull(h, boreas);
  assert.equal(again.item?.id, id, 'a rework item is pullable again');
  assert.equal(again.item?.assignee, boreas.agentId);
  assert.equal(again.item?.verifier, undefined);
  assert.deepEqual(again.claims.map((c) => c.pattern), ['src/x/**']);
  complete(h, boreas.caller, id, ['c1']);
  pull(h, vera);
  verify(h, vera.caller, id, passReport(['c1']));
  decide(h, rte.caller, id, decision('accept'));
  assert.equal(h.core.state.work.get(id)!.status, 'done');
});

test('decisions: rework, rollback and escalate by the RTE or operator, each recorded with its reason code', () => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  const a = add(h, { title: 'a', criteria: ['c1'] }).id;
  const b = add(h, { title: 'b', criteria: ['c1'] }).id;
  const c = add(h, { title: 'c', criteria: ['c1'] }).id;
  for (const id of [a, b, c]) assert.equal(toVerified(h, atlas, vera), id);
  decide(h, rte.caller, a, decision('rework', 'flaky-test'));
  decide(h, OPERATOR, b, { ...decision('rollback', 'broke-main', ['b1d1234']), rollbackRef: 'c0ffee1' });
  decide(h, rte.caller, c, decision('escalate', 'needs-human'));
  assert.equal(h.core.state.work.get(a)!.status, 'rework');
  assert.equal(h.core.state.work.get(b)!.status, 'rolled_back');
  assert.equal(h.core.state.work.get(c)!.status, 'escalated');
  assert.equal(h.core.state.work.get(b)!.statusReason, 'broke-main');
  assert.deepEqual(h.core.state.work.get(b)!.decision?.refs, ['b1d1234'], 'the operator may cite a commit');
  assert.equal(h.core.state.work.get(b)!.decision?.rollbackRef, 'c0ffee1');
  // A rolled back item is final; so is a done one.
  expectRefusedUnchanged(h, rte.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, rte.caller, b, { action: 'decide', decision: decision('rework') }));
});

test('deciding needs role rte or the operator: builders and verifiers are refused', () => {
  const { h, atlas, vera } = orchestrationFleet();
  const worker = joinAgent(h, 'WORKER');
  const id = add(h, { title: 't', criteria: ['c1'] }).id;
  toVerified(h, atlas, vera);
  for (const who of [atlas, vera, worker]) {
    expectRefusedUnchanged(h, who.caller, 'FORBIDDEN', (ctx) => updateWork(ctx, who.caller, id, { action: 'decide', decision: decision('accept') }));
  }
});

test('a done item cannot be decided again (accepting twice)', () => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  const id = add(h, { title: 't', criteria: ['c1'] }).id;
  toVerified(h, atlas, vera);
  decide(h, rte.caller, id, decision('accept'));
  expectRefusedUnchanged(h, rte.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, rte.caller, id, { action: 'decide', decision: decision('accept') }));
  assert.equal(eventsOfType(h.events, 'work.transitioned').filter((e) => e.itemId === id && e.status === 'done').length, 1);
});

test('only its assignee completes an item, and only while it is in progress', () => {
  const { h, atlas, boreas } = orchestrationFleet();
  const id = add(h, { title: 't' }).id;
  expectRefusedUnchanged(h, atlas.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, atlas.caller, id, { action: 'complete', artifact: artifact() }));
  pull(h, atlas);
  expectRefusedUnchanged(h, boreas.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, boreas.caller, id, { action: 'complete', artifact: artifact() }));
  expectRefusedUnchanged(h, OPERATOR, 'NOT_JOINED', (ctx) => updateWork(ctx, OPERATOR, id, { action: 'complete', artifact: artifact() }));
});

test("completing releases only the territory of that item, not the builder's other claims", () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const own = claimNow(h, atlas.caller, { patterns: ['notes/**'] });
  add(h, { title: 'one', ...withPaths(['src/one/**']) });
  const id = pull(h, atlas).item!.id;
  complete(h, atlas.caller, id);
  assert.deepEqual([...h.core.state.claims.values()].map((c) => c.id), [own.claims[0]!.id]);
  const released = eventsOfType(h.events, 'claim.released');
  assert.deepEqual(released.map((e) => [e.pattern, e.reason]), [['src/one/**', 'released']]);
  assert.equal(released[0]!.scope, SCOPE);
});

test('unknown items are NOT_FOUND for every action', () => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  expectRefusedUnchanged(h, atlas.caller, 'NOT_FOUND', (ctx) => updateWork(ctx, atlas.caller, 'wk-nope', { action: 'complete', artifact: artifact() }));
  expectRefusedUnchanged(h, vera.caller, 'NOT_FOUND', (ctx) => updateWork(ctx, vera.caller, 'wk-nope', { action: 'verify', report: passReport([]) }));
  expectRefusedUnchanged(h, rte.caller, 'NOT_FOUND', (ctx) => updateWork(ctx, rte.caller, 'wk-nope', { action: 'decide', decision: decision('accept') }));
});

test(
  'a decision on an item still in progress does not strand it: either refused, or the item is free for another builder',
  () => {
    const { h, atlas, boreas, rte } = orchestrationFleet();
    const id = add(h, { title: 't', ...withPaths(['src/t/**']) }).id;
    pull(h, atlas);
    let refused = false;
    try {
      decide(h, rte.caller, id, decision('rework', 'wrong-approach'));
    } catch {
      refused = true;
    }
    if (!refused) assert.equal(pull(h, boreas).item?.id, id, 'the rework item is stuck behind the old builder claims');
  },
);
