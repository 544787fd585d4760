import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sendMessage } from '../../../server/core/messages.js';
import { updateWork } from '../../../server/core/work-lifecycle.js';
import { eventsOfType, expectRefusedUnchanged, runRecording } from '../../support/core-harness.js';
import { ack, add, complete, decide, decision, orchestrationFleet, passReport, pull, send, toVerified, verify } from '../../support/orchestration-harness.js';

test('a REQUEST about a ready item blocks it from being pulled until a RESOLUTION refs the request', () => {
  const { h, atlas, rte } = orchestrationFleet();
  const id = add(h, { title: 'auth' }).id;
  const { result: q, emitted } = runRecording(h, atlas.caller, (ctx) =>
    sendMessage(ctx, atlas.caller, { to: { callsign: 'RTE1' }, type: 'REQUEST', body: 'OAuth or API keys?', workItem: id }),
  );
  assert.deepEqual(emitted.map((e) => e.type), ['message.sent', 'work.blockers']);
  assert.deepEqual(h.core.state.work.get(id)!.blockedBy, [q.id]);
  assert.equal(pull(h, atlas).item, null);
  const { emitted: resolved } = runRecording(h, rte.caller, (ctx) =>
    sendMessage(ctx, rte.caller, { to: { callsign: 'ATLAS' }, type: 'RESOLUTION', body: 'OAuth', refs: [q.id], workItem: id }),
  );
  assert.deepEqual(resolved.map((e) => e.type), ['message.sent', 'message.status', 'work.blockers']);
  assert.deepEqual(h.core.state.work.get(id)!.blockedBy, []);
  assert.equal(h.core.state.messages.get(q.id)!.status, 'PROCESSED');
  assert.equal(pull(h, atlas).item?.id, id);
});

test('an unresolved clarification request blocks accepting the item, even after a passing verification', () => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  const id = add(h, { title: 'auth', criteria: ['c1'] }).id;
  pull(h, atlas);
  const q = send(h, vera.caller, { to: { callsign: 'ATLAS' }, type: 'REQUEST', body: 'is the token rotated?', workItem: id });
  // Work in progress can still be completed and verified; the request holds the final acceptance.
  complete(h, atlas.caller, id, ['c1']);
  pull(h, vera);
  verify(h, vera.caller, id, passReport(['c1']));
  assert.equal(h.core.state.work.get(id)!.status, 'verified');
  const error = expectRefusedUnchanged(h, rte.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, rte.caller, id, { action: 'decide', decision: decision('accept') }));
  assert.match(error.message, new RegExp(q.id));
  // The addressee processing the request lifts the block.
  ack(h, atlas, [q.id], 'PROCESSED');
  decide(h, rte.caller, id, decision('accept'));
  assert.equal(h.core.state.work.get(id)!.status, 'done');
});

test('a BLOCKER about an item blocks it too; acknowledging (not processing) it does not lift the block', () => {
  const { h, atlas, boreas } = orchestrationFleet();
  const id = add(h, { title: 'db migration' }).id;
  const b = send(h, boreas.caller, { to: { callsign: 'ATLAS' }, type: 'BLOCKER', body: 'staging DB is down', workItem: id });
  ack(h, atlas, [b.id], 'ACKNOWLEDGED');
  assert.equal(pull(h, boreas).item, null);
  ack(h, atlas, [b.id], 'BLOCKED');
  assert.equal(pull(h, boreas).item, null, 'BLOCKED is not resolved');
  assert.deepEqual(h.core.state.work.get(id)!.blockedBy, [b.id]);
});

test('a RESPONSE that refs the request resolves it as well', () => {
  const { h, atlas, rte } = orchestrationFleet();
  const id = add(h, { title: 't' }).id;
  const q = send(h, atlas.caller, { to: { role: 'rte' }, type: 'REQUEST', body: '?', workItem: id });
  send(h, rte.caller, { to: { callsign: 'ATLAS' }, type: 'RESPONSE', body: '!', refs: [q.id] });
  assert.equal(pull(h, atlas).item?.id, id);
});

test('every open request must be resolved: two requests, one answered, still blocked', () => {
  const { h, atlas, rte } = orchestrationFleet();
  const id = add(h, { title: 't' }).id;
  const q1 = send(h, atlas.caller, { to: { callsign: 'RTE1' }, type: 'REQUEST', body: 'one', workItem: id });
  const q2 = send(h, atlas.caller, { to: { callsign: 'RTE1' }, type: 'REQUEST', body: 'two', workItem: id });
  assert.deepEqual(h.core.state.work.get(id)!.blockedBy, [q1.id, q2.id]);
  send(h, rte.caller, { to: { callsign: 'ATLAS' }, type: 'RESOLUTION', body: 'one', refs: [q1.id] });
  assert.equal(pull(h, atlas).item, null);
  send(h, rte.caller, { to: { callsign: 'ATLAS' }, type: 'RESOLUTION', body: 'two', refs: [q2.id] });
  assert.equal(pull(h, atlas).item?.id, id);
});

test('INFO, CONTEXT and CONFIRM about an item do not block it', () => {
  const { h, atlas, rte } = orchestrationFleet();
  const id = add(h, { title: 't' }).id;
  for (const type of ['INFO', 'CONTEXT', 'CONFIRM'] as const) send(h, rte.caller, { to: { callsign: 'ATLAS' }, type, body: type, workItem: id });
  assert.equal(eventsOfType(h.events, 'work.blockers').length, 0);
  assert.equal(pull(h, atlas).item?.id, id);
});

test('a request about an unknown item is NOT_FOUND and blocks nothing', () => {
  const { h, atlas } = orchestrationFleet();
  expectRefusedUnchanged(h, atlas.caller, 'NOT_FOUND', (ctx) => sendMessage(ctx, atlas.caller, { to: { role: 'rte' }, type: 'REQUEST', body: '?', workItem: 'wk-missing' }));
});

test('a verified item with a request sent after verification is held until resolved', () => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  const id = add(h, { title: 't', criteria: ['c1'] }).id;
  toVerified(h, atlas, vera);
  const q = send(h, rte.caller, { to: { callsign: 'ATLAS' }, type: 'REQUEST', body: 'docs?', workItem: id });
  expectRefusedUnchanged(h, rte.caller, 'INVALID_STATE', (ctx) => updateWork(ctx, rte.caller, id, { action: 'decide', decision: decision('accept') }));
  send(h, atlas.caller, { to: { callsign: 'RTE1' }, type: 'RESOLUTION', body: 'added', refs: [q.id] });
  decide(h, rte.caller, id, decision('accept'));
  assert.equal(h.core.state.work.get(id)!.status, 'done');
});
