import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BuildPlan } from '../../../contracts/index.js';
import { updateWork } from '../../../server/core/work-lifecycle.js';
import { OPERATOR, expectRefusedUnchanged } from '../../support/core-harness.js';
import { add, artifact, complete, configure, contentOf, decide, decision, orchestrationFleet, pull, report, toReview, update, verify } from '../../support/orchestration-harness.js';

const plan = (coverage: Record<string, string>): BuildPlan => ({ intendedFiles: ['src/parser.ts'], validationPlan: ['npm test'], coverage, budgetMinutes: 30 });

test('when the fleet requires a plan, completion is refused until the builder submitted one', () => {
  const { h, atlas } = orchestrationFleet();
  const id = add(h, { title: 'parser', criteria: ['parses'] }).id;
  configure(h, { planRequired: true });
  pull(h, atlas);
  const refused = expectRefusedUnchanged(h, atlas.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, atlas.caller, id, { action: 'complete', artifact: artifact(['parses']) }));
  assert.match(refused.message, /requires one before completion.*action plan/);
  update(h, atlas.caller, id, { action: 'plan', plan: plan({ parses: 'the parser tests pass' }) });
  complete(h, atlas.caller, id, ['parses']);
  assert.equal(h.core.state.work.get(id)!.status, 'review');
});

test('without the setting a plan is optional', () => {
  const { h, atlas } = orchestrationFleet();
  const id = add(h, { title: 'parser', criteria: ['parses'] }).id;
  pull(h, atlas);
  complete(h, atlas.caller, id, ['parses']);
  assert.equal(h.core.state.work.get(id)!.status, 'review');
});

test('a plan maps every criterion of the item and no other; only its builder plans it, while in progress', () => {
  const { h, atlas, boreas, vera } = orchestrationFleet();
  const id = add(h, { title: 'parser', criteria: ['parses', 'fast'] }).id;
  const planning = (who: typeof atlas, p: BuildPlan) => (ctx: Parameters<Parameters<typeof expectRefusedUnchanged>[3]>[0]) => updateWork(ctx, who.caller, id, { action: 'plan', plan: p });
  expectRefusedUnchanged(h, atlas.caller, 'INVALID_STATE', planning(atlas, plan({ parses: 'a', fast: 'b' })));
  pull(h, atlas);
  const missing = expectRefusedUnchanged(h, atlas.caller, 'INVALID_PARAMS', planning(atlas, plan({ parses: 'tests' })));
  assert.match(missing.message, /misses criteria .*: fast/);
  const unknown = expectRefusedUnchanged(h, atlas.caller, 'INVALID_PARAMS', planning(atlas, plan({ parses: 'a', fast: 'b', pretty: 'c' })));
  assert.match(unknown.message, /does not have: pretty/);
  expectRefusedUnchanged(h, boreas.caller, 'INVALID_STATE', planning(boreas, plan({ parses: 'a', fast: 'b' })));
  expectRefusedUnchanged(h, vera.caller, 'FORBIDDEN', planning(vera, plan({ parses: 'a', fast: 'b' })));
  update(h, atlas.caller, id, { action: 'plan', plan: plan({ parses: 'a', fast: 'b' }) });
  assert.deepEqual(contentOf(h.core.state.work.get(id)!.plan), { ...plan({ parses: 'a', fast: 'b' }), budgets: { reworkRounds: 3, clarificationRounds: 3 } }, 'the plan as sent, in the budget envelope the item has');
});

test('completion hands the verifier a verification request: the criteria under review, the evidence the plan promised and the rules the verifier works under', () => {
  const { h, atlas, vera } = orchestrationFleet();
  const id = add(h, { title: 'parser', criteria: ['parses', 'fast'] }).id;
  pull(h, atlas);
  update(h, atlas.caller, id, { action: 'plan', plan: plan({ parses: 'parser.test.ts passes', fast: 'bench under 10 ms' }) });
  complete(h, atlas.caller, id, ['parses', 'fast']);
  const review = pull(h, vera).item!;
  assert.deepEqual(contentOf(review.verificationRequest), {
    round: 1,
    criteria: ['parses', 'fast'],
    expectedEvidence: [
      { criterion: 'parses', evidence: 'parser.test.ts passes' },
      { criterion: 'fast', evidence: 'bench under 10 ms' },
    ],
    verifierConstraints: review.verificationRequest!.verifierConstraints,
  });
  assert.ok(review.verificationRequest!.verifierConstraints!.includes('Do not write to the repository: verifiers judge.'), 'the policy constraints applied to the verifier');
  verify(h, vera.caller, id, report({ parses: 'pass', fast: 'fail' }));
  pull(h, atlas);
  complete(h, atlas.caller, id, ['parses', 'fast']);
  assert.equal(h.core.state.work.get(id)!.verificationRequest?.round, 2, 'the second review is round 2');
});

test('accept only with a report that names every criterion, each passing (inconclusive or unnamed never accepts)', () => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  add(h, { title: 'parser', criteria: ['parses', 'fast'] });
  const id = toReview(h, atlas, vera, ['parses', 'fast']);
  expectRefusedUnchanged(h, vera.caller, 'INVALID_PARAMS', (ctx) => updateWork(ctx, vera.caller, id, { action: 'verify', report: report({ parses: 'pass' }) }));
  verify(h, vera.caller, id, report({ parses: 'pass', fast: 'inconclusive' }));
  expectRefusedUnchanged(h, rte.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, rte.caller, id, { action: 'decide', decision: decision('accept') }));
  pull(h, vera);
  verify(h, vera.caller, id, report({ parses: 'pass', fast: 'pass' }));
  decide(h, rte.caller, id, decision('accept'));
  assert.equal(h.core.state.work.get(id)!.status, 'done');
});

test('a rollback decision carries the commit the item started from, recorded at its first pull', () => {
  const { h, atlas, boreas, vera, rte } = orchestrationFleet();
  const id = add(h, { title: 'parser', criteria: ['c1'] }).id;
  pull(h, atlas, { worktree: '/repo', head: 'aaa111', covenant: [] });
  complete(h, atlas.caller, id, ['c1']);
  pull(h, vera);
  verify(h, vera.caller, id, report({ c1: 'fail' }));
  pull(h, boreas, { worktree: '/repo-b', head: 'bbb222', covenant: [] });
  assert.equal(h.core.state.work.get(id)!.startCommit, 'aaa111', 'a rework pull keeps where the item started');
  decide(h, rte.caller, id, decision('rollback', 'broke-main'));
  assert.equal(h.core.state.work.get(id)!.decision?.rollbackRef, 'aaa111');
});

test('a started item with no recorded start commit needs an explicit rollbackRef; one never started needs none', () => {
  const { h, atlas, rte } = orchestrationFleet();
  const started = add(h, { title: 'a' }).id;
  const untouched = add(h, { title: 'b' }).id;
  pull(h, atlas);
  const refused = expectRefusedUnchanged(h, rte.caller, 'INVALID_PARAMS', (ctx) => updateWork(ctx, rte.caller, started, { action: 'decide', decision: decision('rollback', 'x') }));
  assert.match(refused.message, /rollbackRef/);
  decide(h, OPERATOR, started, { ...decision('rollback', 'x'), rollbackRef: 'ccc333' });
  assert.equal(h.core.state.work.get(started)!.decision?.rollbackRef, 'ccc333');
  decide(h, OPERATOR, untouched, decision('rollback', 'not-needed'));
  assert.equal(h.core.state.work.get(untouched)!.status, 'rolled_back');
});
