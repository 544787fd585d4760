import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ackMessages, sendMessage } from '../../../server/core/messages.js';
import { OPERATOR, eventsOfType, expectRefusedUnchanged, joinAgent, makeHarness, runRecording } from '../../support/core-harness.js';
import { ack, inboxOf, send } from '../../support/orchestration-harness.js';

function crew() {
  const h = makeHarness();
  return {
    h,
    atlas: joinAgent(h, 'ATLAS', { role: 'builder' }),
    boreas: joinAgent(h, 'BOREAS', { role: 'builder' }),
    cygnus: joinAgent(h, 'CYGNUS', { role: 'verifier' }),
    rte: joinAgent(h, 'RTE1', { role: 'rte' }),
  };
}

test('a message is recorded with its type, priority, refs and a unique id, as PENDING', () => {
  const { h, atlas } = crew();
  const types = ['REQUEST', 'RESPONSE', 'INFO', 'BLOCKER', 'RESOLUTION', 'CONFIRM', 'CONTEXT'] as const;
  const ids = new Set<string>();
  for (const type of types) {
    const { result, emitted } = runRecording(h, atlas.caller, (ctx) => sendMessage(ctx, atlas.caller, { to: { callsign: 'BOREAS' }, type, body: `a ${type}`, priority: 'high', refs: ['ho-1'] }));
    assert.deepEqual(emitted.map((e) => e.type), ['message.sent']);
    assert.equal(result.type, type);
    assert.equal(result.status, 'PENDING');
    assert.equal(result.from, 'ATLAS');
    assert.equal(result.priority, 'high');
    assert.deepEqual(result.refs, ['ho-1']);
    ids.add(result.id);
  }
  assert.equal(ids.size, types.length);
  assert.equal(send(h, atlas.caller, { to: { callsign: 'BOREAS' }, type: 'INFO', body: 'x' }).priority, 'normal', 'priority defaults to normal');
});

test('messages go to a live callsign or a role; an unknown callsign is NOT_FOUND; the operator may send too', () => {
  const { h, atlas } = crew();
  expectRefusedUnchanged(h, atlas.caller, 'NOT_FOUND', (ctx) => sendMessage(ctx, atlas.caller, { to: { callsign: 'NOBODY' }, type: 'INFO', body: 'x' }));
  const fromOperator = send(h, OPERATOR, { to: { role: 'builder' }, type: 'CONTEXT', body: 'the API freeze is on Friday' });
  assert.equal(fromOperator.from, 'dana');
  assert.equal(inboxOf(h, atlas).unread, 1);
});

test('@mentions notify: the mentioned live agents see the message in their inbox; unknown names are ignored', () => {
  const { h, atlas, boreas, cygnus, rte } = crew();
  const message = send(h, atlas.caller, { to: { callsign: 'RTE1' }, type: 'INFO', body: 'merged; @CYGNUS please verify, cc @BOREAS and @CYGNUS and @GHOST' });
  assert.deepEqual(message.mentions, ['CYGNUS', 'BOREAS'], 'deduplicated, only live callsigns');
  for (const who of [rte, cygnus, boreas]) assert.deepEqual(inboxOf(h, who).messages.map((m) => m.id), [message.id], who.callsign);
  assert.equal(inboxOf(h, atlas).messages.length, 0, 'the sender does not get its own message');
  // A mentioned agent may acknowledge it.
  ack(h, cygnus, [message.id], 'ACKNOWLEDGED');
  assert.equal(h.core.state.messages.get(message.id)!.status, 'ACKNOWLEDGED');
});

test('the inbox: messages for me, my role and my mentions, newest first, with the unread (PENDING) count', () => {
  const { h, atlas, boreas, rte } = crew();
  const m1 = send(h, rte.caller, { to: { callsign: 'ATLAS' }, type: 'REQUEST', body: 'status?' });
  h.clock.advance(1000);
  const m2 = send(h, rte.caller, { to: { role: 'builder' }, type: 'INFO', body: 'freeze at 5' });
  h.clock.advance(1000);
  send(h, rte.caller, { to: { callsign: 'BOREAS' }, type: 'INFO', body: 'not for ATLAS' });
  const m4 = send(h, boreas.caller, { to: { callsign: 'RTE1' }, type: 'INFO', body: 'ask @ATLAS' });
  let box = inboxOf(h, atlas);
  assert.deepEqual(box.messages.map((m) => m.id), [m4.id, m2.id, m1.id]);
  assert.equal(box.unread, 3);
  ack(h, atlas, [m1.id], 'ACKNOWLEDGED');
  box = inboxOf(h, atlas, { unreadOnly: true });
  assert.equal(box.unread, 2);
  assert.deepEqual(box.messages.map((m) => m.id), [m4.id, m2.id]);
  assert.deepEqual(inboxOf(h, atlas, { limit: 1 }).messages.map((m) => m.id), [m4.id]);
  assert.equal(inboxOf(h, atlas, { limit: 1 }).unread, 2, 'the count covers the whole inbox, not the page');
});

test('status moves forward only: PENDING → ACKNOWLEDGED → PROCESSED, or → BLOCKED; never back', () => {
  const { h, atlas, rte } = crew();
  const [a, b, c] = [1, 2, 3].map((n) => send(h, rte.caller, { to: { callsign: 'ATLAS' }, type: 'REQUEST', body: `q${n}` }).id) as [string, string, string];
  const { emitted } = runRecording(h, atlas.caller, (ctx) => ackMessages(ctx, atlas.caller, [a, b], 'ACKNOWLEDGED'));
  assert.deepEqual(eventsOfType(emitted, 'message.status').map((e) => [e.messageId, e.status, e.by]), [[a, 'ACKNOWLEDGED', 'ATLAS'], [b, 'ACKNOWLEDGED', 'ATLAS']]);
  ack(h, atlas, [a], 'PROCESSED');
  ack(h, atlas, [b], 'BLOCKED');
  ack(h, atlas, [c], 'PROCESSED'); // straight from PENDING is forward too
  assert.deepEqual([a, b, c].map((id) => h.core.state.messages.get(id)!.status), ['PROCESSED', 'BLOCKED', 'PROCESSED']);
  expectRefusedUnchanged(h, atlas.caller, 'INVALID_STATE', (ctx) => ackMessages(ctx, atlas.caller, [a], 'ACKNOWLEDGED'));
  expectRefusedUnchanged(h, atlas.caller, 'INVALID_STATE', (ctx) => ackMessages(ctx, atlas.caller, [b], 'ACKNOWLEDGED'));
  expectRefusedUnchanged(h, atlas.caller, 'INVALID_STATE', (ctx) => ackMessages(ctx, atlas.caller, [a], 'BLOCKED'));
  expectRefusedUnchanged(h, atlas.caller, 'INVALID_STATE', (ctx) => ackMessages(ctx, atlas.caller, [b], 'PROCESSED'));
  // The same status again is a harmless retry.
  const { emitted: retry } = runRecording(h, atlas.caller, (ctx) => ackMessages(ctx, atlas.caller, [a], 'PROCESSED'));
  assert.deepEqual(retry, []);
});

test('an acknowledgement is all or nothing: one bad id refuses the whole batch', () => {
  const { h, atlas, boreas, rte } = crew();
  const mine = send(h, rte.caller, { to: { callsign: 'ATLAS' }, type: 'INFO', body: 'a' });
  const theirs = send(h, rte.caller, { to: { callsign: 'BOREAS' }, type: 'INFO', body: 'b' });
  expectRefusedUnchanged(h, atlas.caller, 'FORBIDDEN', (ctx) => ackMessages(ctx, atlas.caller, [mine.id, theirs.id], 'ACKNOWLEDGED'));
  expectRefusedUnchanged(h, atlas.caller, 'NOT_FOUND', (ctx) => ackMessages(ctx, atlas.caller, [mine.id, 'msg-missing'], 'ACKNOWLEDGED'));
  assert.equal(h.core.state.messages.get(mine.id)!.status, 'PENDING');
  ack(h, boreas, [theirs.id], 'ACKNOWLEDGED');
});

test('history is append-only: acknowledged and processed messages stay readable in the inbox', () => {
  const { h, atlas, rte } = crew();
  const m = send(h, rte.caller, { to: { callsign: 'ATLAS' }, type: 'INFO', body: 'keep me' });
  ack(h, atlas, [m.id], 'PROCESSED');
  const box = inboxOf(h, atlas);
  assert.equal(box.unread, 0);
  assert.deepEqual(box.messages.map((x) => [x.id, x.status, x.body]), [[m.id, 'PROCESSED', 'keep me']]);
  assert.equal(eventsOfType(h.events, 'message.sent').length, 1);
});

test('a RESPONSE or RESOLUTION that refs a message marks it PROCESSED', () => {
  const { h, atlas, rte } = crew();
  const q1 = send(h, atlas.caller, { to: { callsign: 'RTE1' }, type: 'REQUEST', body: 'which schema?' });
  const q2 = send(h, atlas.caller, { to: { callsign: 'RTE1' }, type: 'REQUEST', body: 'which port?' });
  send(h, rte.caller, { to: { callsign: 'ATLAS' }, type: 'RESPONSE', body: 'v2', refs: [q1.id] });
  send(h, rte.caller, { to: { callsign: 'ATLAS' }, type: 'INFO', body: 'fyi', refs: [q2.id] });
  assert.equal(h.core.state.messages.get(q1.id)!.status, 'PROCESSED');
  assert.equal(h.core.state.messages.get(q2.id)!.status, 'PENDING', 'an INFO that refs a request does not resolve it');
});

test('an unjoined caller has no inbox to acknowledge from', () => {
  const { h, rte } = crew();
  const m = send(h, rte.caller, { to: { callsign: 'ATLAS' }, type: 'INFO', body: 'x' });
  expectRefusedUnchanged(h, OPERATOR, 'NOT_JOINED', (ctx) => ackMessages(ctx, OPERATOR, [m.id], 'ACKNOWLEDGED'));
});

test(
  'unread counts are per agent: one builder reading a message sent to all builders leaves it unread for the others',
  () => {
    const { h, atlas, boreas, rte } = crew();
    const m = send(h, rte.caller, { to: { role: 'builder' }, type: 'INFO', body: 'freeze at 5' });
    ack(h, atlas, [m.id], 'ACKNOWLEDGED');
    assert.equal(inboxOf(h, atlas).unread, 0);
    assert.equal(inboxOf(h, boreas).unread, 1, "BOREAS never read it, but it no longer counts as unread for BOREAS");
  },
);
