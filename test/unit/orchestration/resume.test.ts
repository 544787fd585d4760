import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requireAgent } from '../../../server/core/authority.js';
import { resumeAnchor } from '../../../server/core/resume.js';
import { join } from '../../../server/core/roster.js';
import { claimNow, restoreHarness, type Harness, type JoinedAgent } from '../../support/core-harness.js';
import { ack, add, complete, decide, decision, handoff, orchestrationFleet, pull, send, toVerified, withPaths } from '../../support/orchestration-harness.js';

const anchorOf = (h: Harness, agent: JoinedAgent) => h.core.run(agent.caller, (ctx) => resumeAnchor(ctx, requireAgent(ctx.state, agent.caller)));

function midSession() {
  const f = orchestrationFleet();
  const { h, atlas, boreas, vera, rte } = f;
  // Two earlier items of ATLAS were judged; one is in progress now.
  const d1 = add(h, { title: 'first', criteria: ['c1'] }).id;
  const d2 = add(h, { title: 'second', criteria: ['c1'] }).id;
  toVerified(h, atlas, vera);
  decide(h, rte.caller, d1, decision('accept', 'criteria-met'));
  h.clock.advance(1000);
  toVerified(h, atlas, vera);
  decide(h, rte.caller, d2, decision('rework', 'missing-tests'));
  h.clock.advance(1000);
  const current = add(h, { title: 'current', ...withPaths(['src/current/**']) }).id;
  // d2 (rework) is older in the queue than `current`: ATLAS pulls it first, then `current`.
  assert.equal(pull(h, atlas).item?.id, d2);
  assert.equal(pull(h, atlas).item?.id, current);
  const manual = claimNow(h, atlas.caller, { patterns: ['notes/**'] }).claims[0]!;
  const read = send(h, rte.caller, { to: { callsign: 'ATLAS' }, type: 'INFO', body: 'already read' });
  ack(h, atlas, [read.id], 'ACKNOWLEDGED');
  const unread = send(h, rte.caller, { to: { callsign: 'ATLAS' }, type: 'REQUEST', body: 'ETA?' });
  const mention = send(h, boreas.caller, { to: { callsign: 'RTE1' }, type: 'INFO', body: 'ask @ATLAS' });
  const incoming = handoff(h, boreas, { to: { callsign: 'ATLAS' }, summary: 'take the lexer' });
  const outgoing = handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: [manual.id], summary: 'notes are yours' });
  return { ...f, d1, d2, current, manual, unread, mention, incoming, outgoing };
}

test('resume gives, in one call, the claims, current work, unread messages, pending handoffs and last decisions', () => {
  const { h, atlas, d1, d2, current, manual, unread, mention, incoming, outgoing } = midSession();
  const anchor = anchorOf(h, atlas);
  assert.deepEqual(anchor.claims.map((c) => c.pattern).sort(), ['notes/**', 'src/current/**']);
  assert.equal(anchor.claims.find((c) => c.id === manual.id)!.escrow, outgoing.id, 'the claim travelling with a handoff says so');
  assert.deepEqual(anchor.work.map((w) => w.id), [d2, current]);
  assert.deepEqual(anchor.unread.messages.map((m) => m.id), [mention.id, unread.id]);
  assert.equal(anchor.unread.unread, 2);
  assert.deepEqual(anchor.handoffsToMe.map((x) => x.id), [incoming.id]);
  assert.deepEqual(anchor.handoffsFromMe.map((x) => x.id), [outgoing.id]);
  assert.deepEqual(anchor.decisions.map((w) => [w.id, w.decision?.disposition, w.decision?.reasonCode]), [
    [d2, 'rework', 'missing-tests'],
    [d1, 'accept', 'criteria-met'],
  ]);
});

test('a new session of the same agent (rejoined with its token) gets the same anchor, also after a restart from the log', () => {
  const { h, atlas } = midSession();
  const before = anchorOf(h, atlas);
  h.core.run(undefined, (ctx) => join(ctx, { callsign: 'ATLAS', runtime: 'claude-code', sessionToken: atlas.sessionToken }));
  assert.deepEqual(anchorOf(h, atlas), before);
  const restarted = restoreHarness({ snapshot: null, tail: h.events }, {}, h.clock);
  assert.deepEqual(anchorOf(restarted, atlas), before);
});

test('a self-handoff (context exhaustion) shows up as waiting for the new session', () => {
  const { h, boreas } = orchestrationFleet();
  add(h, { title: 't', ...withPaths(['src/t/**']) });
  const pulled = pull(h, boreas);
  const ho = handoff(h, boreas, { to: { callsign: 'BOREAS' }, claims: pulled.claims.map((c) => c.id), summary: 'context full: continue at step 3' });
  const anchor = anchorOf(h, boreas);
  assert.deepEqual(anchor.handoffsToMe.map((x) => x.id), [ho.id]);
  assert.deepEqual(anchor.handoffsFromMe.map((x) => x.id), [ho.id]);
  assert.equal(anchor.handoffsToMe[0]!.envelope.summary, 'context full: continue at step 3');
  assert.equal(anchor.work.length, 1);
});

test("a verifier's anchor holds the item it is reviewing", () => {
  const { h, atlas, vera } = orchestrationFleet();
  const id = add(h, { title: 't', criteria: ['c1'] }).id;
  pull(h, atlas);
  complete(h, atlas.caller, id, ['c1']);
  pull(h, vera);
  assert.deepEqual(anchorOf(h, vera).work.map((w) => w.id), [id]);
  assert.deepEqual(anchorOf(h, atlas).work, [], 'the builder is done with it');
});

test('at most the five latest decisions are listed, newest first', () => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  const ids: string[] = [];
  for (let n = 0; n < 7; n++) {
    const id = add(h, { title: `t${n}`, criteria: ['c1'] }).id;
    toVerified(h, atlas, vera);
    decide(h, rte.caller, id, decision('accept', `r${n}`));
    ids.push(id);
    h.clock.advance(1000);
    h.core.run(atlas.caller, () => undefined);
  }
  assert.deepEqual(anchorOf(h, atlas).decisions.map((w) => w.id), ids.slice(2).reverse());
});

test(
  "an RTE's anchor lists the decisions it made",
  () => {
    const { h, atlas, vera, rte } = orchestrationFleet();
    const id = add(h, { title: 't', criteria: ['c1'] }).id;
    toVerified(h, atlas, vera);
    decide(h, rte.caller, id, decision('accept'));
    assert.deepEqual(anchorOf(h, rte).decisions.map((w) => w.id), [id]);
  },
);
