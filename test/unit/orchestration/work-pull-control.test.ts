import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pullWork } from '../../../server/core/work-queue.js';
import { claimNow, runRecording } from '../../support/core-harness.js';
import { add, complete, control, orchestrationFleet, pull, respond, handoff, withPaths } from '../../support/orchestration-harness.js';

for (const state of ['pause', 'drain', 'stop'] as const) {
  test(`${state}: pull is refused by control (a normal result), starts nothing and claims nothing`, () => {
    const { h, atlas, vera } = orchestrationFleet();
    const id = add(h, { title: 't', ...withPaths(['src/t/**']) }).id;
    control(h, state, undefined, 'hold on');
    const { result, emitted } = runRecording(h, atlas.caller, (ctx) => pullWork(ctx, atlas.caller, h.core.queue));
    assert.deepEqual(result, { item: null, claims: [], refusedBy: 'control' });
    assert.deepEqual(emitted, []);
    assert.equal(h.core.state.work.get(id)!.status, 'ready');
    assert.equal(h.core.state.claims.size, 0);
    // Verifiers start nothing new either.
    assert.deepEqual(pull(h, vera), { item: null, claims: [], refusedBy: 'control' });
  });
}

test('the operator switching back to run makes the queue pullable again', () => {
  const { h, atlas } = orchestrationFleet();
  const id = add(h, { title: 't' }).id;
  control(h, 'pause');
  assert.equal(pull(h, atlas).refusedBy, 'control');
  control(h, 'run');
  const out = pull(h, atlas);
  assert.equal(out.item?.id, id);
  assert.equal(out.refusedBy, undefined);
});

test('an RTE pulling the brake stops pulls the same way', () => {
  const { h, atlas, rte } = orchestrationFleet();
  add(h, { title: 't' });
  control(h, 'drain', rte.caller, 'release day');
  assert.equal(pull(h, atlas).refusedBy, 'control');
});

test('drain: work in progress can still be completed; only new pulls are refused', () => {
  const { h, atlas, boreas } = orchestrationFleet();
  const id = add(h, { title: 't', ...withPaths(['src/t/**']) }).id;
  add(h, { title: 'next' });
  pull(h, atlas);
  control(h, 'drain');
  complete(h, atlas.caller, id);
  assert.equal(h.core.state.work.get(id)!.status, 'review');
  assert.equal(pull(h, boreas).refusedBy, 'control');
  // Claims still work in drain.
  assert.equal(claimNow(h, boreas.caller, { patterns: ['docs/**'] }).granted, true);
});

test('pause: work in progress can be completed and handoffs accepted, but nothing new starts', () => {
  const { h, atlas, boreas } = orchestrationFleet();
  const id = add(h, { title: 't', ...withPaths(['src/t/**']) }).id;
  const pulled = pull(h, atlas);
  control(h, 'pause');
  const ho = handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: pulled.claims.map((c) => c.id), workItem: id });
  const accepted = respond(h, boreas, ho.id, true);
  assert.equal(accepted.handoff.status, 'accepted');
  assert.equal(h.core.state.work.get(id)!.assignee, boreas.agentId);
  complete(h, boreas.caller, id);
  assert.equal(h.core.state.work.get(id)!.status, 'review');
});
