import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildDigest } from '../../../server/core/digest.js';
import { renderDigestMarkdown } from '../../../server/core/digest-markdown.js';
import { toPersisted } from '../../../server/core/state.js';
import { configureWork } from '../../../server/core/work-budgets.js';
import { updateWork } from '../../../server/core/work-lifecycle.js';
import { OPERATOR, expectRefusedUnchanged, restoreHarness } from '../../support/core-harness.js';
import { add, complete, configure, contentOf, decide, decision, orchestrationFleet, pull, report, toReview, verify } from '../../support/orchestration-harness.js';
import type { Harness, JoinedAgent } from '../../support/core-harness.js';

/** The builder completes, the verifier fails it: one round of disagreement. Returns the status after. */
function disagree(h: Harness, builder: JoinedAgent, verifier: JoinedAgent, id: string): string {
  assert.equal(toReview(h, builder, verifier), id);
  verify(h, verifier.caller, id, report({ c1: 'fail' }));
  return h.core.state.work.get(id)!.status;
}

test('rework budget (default 3): three failed verifications send the item back, the fourth escalates it to the operator', () => {
  const { h, atlas, vera } = orchestrationFleet();
  const id = add(h, { title: 'parser', criteria: ['c1'] }).id;
  for (let round = 1; round <= 3; round++) {
    assert.equal(disagree(h, atlas, vera, id), 'rework');
    assert.equal(h.core.state.work.get(id)!.reworkRounds, round);
  }
  assert.equal(disagree(h, atlas, vera, id), 'escalated');
  const item = h.core.state.work.get(id)!;
  assert.deepEqual(item.escalation, { budget: 'rework', spent: 3, limit: 3, by: 'VERA', waitedIn: 'review' });
  assert.equal(item.reworkRounds, 3, 'escalating spends no round');
  assert.deepEqual(contentOf(item.report), report({ c1: 'fail' }), 'the last report is kept');
  assert.equal(pull(h, atlas).item, null, 'an escalated item is nobody\'s to pull');
});

test('the rework budget is settable per fleet and per item', () => {
  const { h, atlas, vera } = orchestrationFleet();
  configure(h, { reworkRounds: 1 });
  const own = add(h, { title: 'a', criteria: ['c1'] }).id;
  configure(h, { id: own, reworkRounds: 0 });
  const fleetWide = add(h, { title: 'b', criteria: ['c1'] }).id;
  assert.equal(disagree(h, atlas, vera, own), 'escalated', 'its own budget of 0 wins over the fleet\'s 1');
  assert.equal(disagree(h, atlas, vera, fleetWide), 'rework');
  assert.equal(disagree(h, atlas, vera, fleetWide), 'escalated');
  assert.equal(h.core.state.work.get(own)!.escalation?.limit, 0);
});

test('a rework decision spends a round too: an RTE past the budget escalates; the operator must raise the budget first', () => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  const id = add(h, { title: 't', criteria: ['c1'] }).id;
  configure(h, { id, reworkRounds: 1 });
  assert.equal(disagree(h, atlas, vera, id), 'rework');
  pull(h, atlas);
  complete(h, atlas.caller, id, ['c1']);
  decide(h, rte.caller, id, decision('rework', 'style'));
  assert.equal(h.core.state.work.get(id)!.status, 'escalated');
  assert.equal(h.core.state.work.get(id)!.escalation?.by, 'RTE1');

  const refused = expectRefusedUnchanged(h, OPERATOR, 'INVALID_STATE', (ctx) => updateWork(ctx, OPERATOR, id, { action: 'decide', decision: { ...decision('rework', 'try-again'), note: 'one more try' } }));
  assert.match(refused.message, /rework budget \(1 of 1 rounds\).*fleet_work_configure/);
  const raised = configure(h, { id, reworkRounds: 2 });
  assert.equal(raised?.budgets?.reworkRounds, 2);
  decide(h, OPERATOR, id, decision('rework', 'try-again'));
  const item = h.core.state.work.get(id)!;
  assert.equal(item.status, 'rework');
  assert.equal(item.escalation, undefined, 'the operator\'s decision ends the escalation');
  assert.equal(item.reworkRounds, 2);
});

test('configuring the protocol needs an RTE or the operator; planRequired is fleet-wide only', () => {
  const { h, atlas, rte } = orchestrationFleet();
  const id = add(h, { title: 't' }).id;
  expectRefusedUnchanged(h, atlas.caller, 'FORBIDDEN', (ctx) => configureWork(ctx, atlas.caller, { reworkRounds: 9 }));
  expectRefusedUnchanged(h, OPERATOR, 'NOT_FOUND', (ctx) => configureWork(ctx, OPERATOR, { id: 'wk-nope', reworkRounds: 9 }));
  expectRefusedUnchanged(h, OPERATOR, 'INVALID_PARAMS', (ctx) => configureWork(ctx, OPERATOR, { id, planRequired: true }));
  configure(h, { clarificationRounds: 5, planRequired: true }, rte.caller);
  assert.deepEqual(h.core.state.workSettings, { reworkRounds: 3, clarificationRounds: 5, planRequired: true });
});

test('escalations and spent budgets reach the digest, and replaying the log rebuilds them', () => {
  const { h, atlas, vera } = orchestrationFleet();
  const id = add(h, { title: 'flaky parser', criteria: ['c1'] }).id;
  configure(h, { id, reworkRounds: 1 });
  const other = add(h, { title: 'lexer', criteria: ['c1'] }).id;
  disagree(h, atlas, vera, id);
  disagree(h, atlas, vera, id);
  disagree(h, atlas, vera, other);
  const digest = buildDigest(h.events, h.core.state, h.core.indexes, 1);
  assert.deepEqual(digest.escalations, [{ id, title: 'flaky parser', budget: 'rework', spent: 1, limit: 1, by: 'VERA' }]);
  assert.deepEqual(
    digest.budgetsSpent.map((b) => [b.id, b.reworkRounds, b.reworkLimit]),
    [
      [id, 1, 1],
      [other, 1, 3],
    ],
  );
  const markdown = renderDigestMarkdown(digest);
  assert.match(markdown, /## Escalations waiting for the operator\n\n- flaky parser \(wk-\d+\): rework budget spent, 1 of 1 rounds/);
  assert.match(markdown, /## Budgets spent\n\n- flaky parser .*rework 1\/1/);
  const replayed = restoreHarness({ snapshot: null, tail: h.events });
  assert.deepEqual(toPersisted(replayed.core.state), toPersisted(h.core.state));
});
