import assert from 'node:assert/strict';
import { test } from 'node:test';
import { leave } from '../../../server/core/roster.js';
import { updateWork } from '../../../server/core/work-lifecycle.js';
import { OPERATOR, expectRefusedUnchanged, type Harness, type JoinedAgent } from '../../support/core-harness.js';
import { add, configure, contentOf, decide, decision, orchestrationFleet, pull, toVerified, update, withPaths } from '../../support/orchestration-harness.js';

const ask = (h: Harness, who: JoinedAgent, id: string, question = 'OAuth or API keys?', options = ['OAuth', 'API keys']) =>
  update(h, who.caller, id, { action: 'clarify', question, options });

test('a clarification request blocks the item; the answer records the choice, its rationale and updated constraints, and lifts the block', () => {
  const { h, atlas, rte } = orchestrationFleet();
  const id = add(h, { title: 'auth', criteria: ['c1'] }).id;
  const { clarificationId } = ask(h, atlas, id);
  assert.ok(clarificationId);
  const item = h.core.state.work.get(id)!;
  assert.deepEqual(item.blockedBy, [clarificationId], 'the REQUEST message blocks it, as every REQUEST about an item does');
  assert.deepEqual(item.clarifications.map((c) => ({ id: c.request.id, ...contentOf(c.request) })), [{ id: clarificationId, question: 'OAuth or API keys?', options: ['OAuth', 'API keys'], askedBy: 'ATLAS', round: 1 }]);
  assert.equal(h.core.state.messages.get(clarificationId)?.type, 'REQUEST');
  assert.equal(pull(h, atlas).item, null);

  update(h, rte.caller, id, { action: 'answer', requestId: clarificationId, chosen: 'OAuth', rationale: 'the customers use SSO', updatedConstraints: ['no API keys in config'] });
  assert.deepEqual(h.core.state.work.get(id)!.blockedBy, []);
  assert.deepEqual(contentOf(h.core.state.work.get(id)!.clarifications[0]!.response), {
    requestId: clarificationId,
    chosen: 'OAuth',
    rationale: 'the customers use SSO',
    updatedConstraints: ['no API keys in config'],
    answeredBy: 'RTE1',
  });
  assert.equal(h.core.state.messages.get(clarificationId)?.status, 'PROCESSED');
  assert.equal(pull(h, atlas).item?.id, id);
});

test('an open clarification still blocks acceptance of a verified item (the one blocking rule)', () => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  add(h, { title: 'auth', criteria: ['c1'] });
  const id = toVerified(h, atlas, vera);
  const { clarificationId } = ask(h, vera, id, 'is the token rotated?', []);
  const refused = expectRefusedUnchanged(h, rte.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, rte.caller, id, { action: 'decide', decision: decision('accept') }));
  assert.match(refused.message, new RegExp(clarificationId!));
  update(h, rte.caller, id, { action: 'answer', requestId: clarificationId!, chosen: 'yes, daily', rationale: 'see the cron job', updatedConstraints: [] });
  decide(h, rte.caller, id, decision('accept'));
  assert.equal(h.core.state.work.get(id)!.status, 'done');
});

test('answers: one of the options offered, once, by an RTE, the operator or the agent asked', () => {
  const { h, atlas, boreas, vera } = orchestrationFleet();
  const id = add(h, { title: 'auth' }).id;
  const toVera = update(h, atlas.caller, id, { action: 'clarify', question: 'which DB?', options: ['pg', 'sqlite'], to: 'VERA' }).clarificationId!;
  const answer = (chosen: string) => ({ action: 'answer' as const, requestId: toVera, chosen, rationale: 'r', updatedConstraints: [] });
  expectRefusedUnchanged(h, boreas.caller, 'FORBIDDEN', (ctx) => updateWork(ctx, boreas.caller, id, answer('pg')));
  const offMenu = expectRefusedUnchanged(h, vera.caller, 'INVALID_PARAMS', (ctx) => updateWork(ctx, vera.caller, id, answer('mysql')));
  assert.match(offMenu.message, /one of the options offered: pg; sqlite/);
  update(h, vera.caller, id, answer('pg'));
  expectRefusedUnchanged(h, OPERATOR, 'INVALID_STATE', (ctx) => updateWork(ctx, OPERATOR, id, answer('sqlite')));
  expectRefusedUnchanged(h, OPERATOR, 'NOT_FOUND', (ctx) => updateWork(ctx, OPERATOR, id, { action: 'answer', requestId: 'msg-nope', chosen: 'x', rationale: 'r', updatedConstraints: [] }));
});

test('clarification rounds (default 3): the fourth question escalates the item to the operator instead of being asked', () => {
  const { h, atlas, rte } = orchestrationFleet();
  const id = add(h, { title: 'auth' }).id;
  for (let round = 1; round <= 3; round++) {
    const { clarificationId } = ask(h, atlas, id, `question ${round}`);
    update(h, rte.caller, id, { action: 'answer', requestId: clarificationId!, chosen: 'OAuth', rationale: 'r', updatedConstraints: [] });
  }
  const fourth = ask(h, atlas, id, 'question 4');
  const item = h.core.state.work.get(id)!;
  assert.equal(item.status, 'escalated');
  const { question, ...escalation } = item.escalation!;
  assert.deepEqual(escalation, { budget: 'clarification', spent: 3, limit: 3, by: 'ATLAS', waitedIn: 'ready' });
  assert.equal(question?.id, fourth.clarificationId, 'the question goes to the operator with the escalation');
  assert.equal(question?.question, 'question 4');
  assert.equal(item.clarifications.length, 3, 'the question past the budget is not asked');
  expectRefusedUnchanged(h, atlas.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, atlas.caller, id, { action: 'clarify', question: 'again?', options: [] }));
});

test('the clarification budget is settable per fleet and per item; an item in progress escalated by a question keeps its builder\'s claims until answered', () => {
  const { h, atlas } = orchestrationFleet();
  configure(h, { clarificationRounds: 0 });
  const fleetWide = add(h, { title: 'a' }).id;
  const own = add(h, { title: 'b', ...withPaths(['src/b/**']) }).id;
  configure(h, { id: own, clarificationRounds: 1 });
  ask(h, atlas, fleetWide);
  assert.equal(h.core.state.work.get(fleetWide)!.status, 'escalated');
  assert.equal(pull(h, atlas).item?.id, own);
  assert.equal(h.core.indexes.claimIdsOf(atlas.agentId).length, 1);
  assert.ok(ask(h, atlas, own).clarificationId);
  ask(h, atlas, own);
  const item = h.core.state.work.get(own)!;
  assert.equal(item.status, 'escalated');
  assert.equal(item.assignee, atlas.agentId, 'the builder waits for the answer, as for any open question');
  assert.equal(h.core.indexes.claimIdsOf(atlas.agentId).length, 1);
});

test('a question that escalated: only the operator answers it; if its builder left meanwhile, the answer returns the item to the queue, its claims gone with the builder', () => {
  const { h, atlas, rte } = orchestrationFleet();
  configure(h, { clarificationRounds: 0 });
  const id = add(h, { title: 'auth', ...withPaths(['src/auth/**']) }).id;
  pull(h, atlas);
  const { clarificationId } = ask(h, atlas, id);
  assert.equal(h.core.state.work.get(id)!.escalation?.waitedIn, 'in_progress');
  const answer = { action: 'answer' as const, requestId: clarificationId!, chosen: 'OAuth', rationale: 'SSO', updatedConstraints: [] };
  const refused = expectRefusedUnchanged(h, rte.caller, 'FORBIDDEN', (ctx) => updateWork(ctx, rte.caller, id, answer));
  assert.match(refused.message, /escalated to the operator: only the operator answers/);
  h.core.run(atlas.caller, (ctx) => leave(ctx, atlas.caller));
  const waiting = h.core.state.work.get(id)!;
  assert.equal(waiting.status, 'escalated', 'the question still waits for the operator');
  assert.equal(waiting.assignee, undefined);
  assert.equal(waiting.escalation?.waitedIn, 'ready');
  update(h, OPERATOR, id, answer);
  const answered = h.core.state.work.get(id)!;
  assert.equal(answered.status, 'ready', 'back to the queue: its builder is gone');
  assert.equal(answered.escalation, undefined);
  assert.equal(answered.clarifications.at(-1)?.response?.chosen, 'OAuth');
});
