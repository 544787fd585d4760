import assert from 'node:assert/strict';
import { test } from 'node:test';
import { leave } from '../../../server/core/roster.js';
import { TTL_MS, eventsOfType, joinAgent, makeHarness, type Harness, type JoinedAgent } from '../../support/core-harness.js';
import { add, complete, orchestrationFleet, pull, withPaths } from '../../support/orchestration-harness.js';

/** Keeps `alive` heartbeating while time passes twice the TTL (plus 1 ms) for everyone else. */
function passTwiceTtl(h: Harness, alive: JoinedAgent[]): void {
  h.clock.advance(TTL_MS);
  for (const a of alive) h.core.run(a.caller, () => undefined);
  h.clock.advance(TTL_MS + 1);
  for (const a of alive) h.core.run(a.caller, () => undefined);
}

test('the items of an agent that went unknown and then expired return to ready, with the reason recorded', () => {
  const { h, atlas, boreas } = orchestrationFleet();
  const id = add(h, { title: 'parser', ...withPaths(['src/parser/**']) }).id;
  const other = add(h, { title: 'lexer', ...withPaths(['src/lexer/**']) }).id;
  pull(h, atlas);
  pull(h, boreas);
  h.clock.advance(TTL_MS);
  h.core.run(boreas.caller, () => undefined);
  assert.ok(eventsOfType(h.events, 'agent.unknown').some((e) => e.agentId === atlas.agentId), 'ATLAS went unknown first');
  assert.equal(h.core.state.work.get(id)!.status, 'in_progress', 'unknown is not yet expired: the item stays');
  h.clock.advance(TTL_MS + 1);
  h.core.run(boreas.caller, () => undefined);
  const item = h.core.state.work.get(id)!;
  assert.equal(item.status, 'ready');
  assert.equal(item.assignee, undefined);
  assert.equal(item.statusReason, 'ATLAS went silent and expired');
  const back = eventsOfType(h.events, 'work.transitioned').filter((e) => e.itemId === id).at(-1)!;
  assert.deepEqual([back.status, back.by, back.assignee, back.reason], ['ready', 'plane', null, 'ATLAS went silent and expired']);
  const released = eventsOfType(h.events, 'claim.released').filter((e) => e.agentId === atlas.agentId);
  assert.deepEqual(released.map((e) => [e.pattern, e.reason]), [['src/parser/**', 'expired']]);
  // The order of the log: claims released, work returned, then the agent expired.
  const at = (pred: (e: (typeof h.events)[number]) => boolean) => h.events.findIndex(pred);
  const order = [
    at((e) => e.type === 'agent.unknown' && e.agentId === atlas.agentId),
    at((e) => e.type === 'claim.released' && e.agentId === atlas.agentId),
    at((e) => e.type === 'work.transitioned' && e.itemId === id && e.status === 'ready'),
    at((e) => e.type === 'agent.expired' && e.agentId === atlas.agentId),
  ];
  assert.ok(order.every((n, i) => n >= 0 && (i === 0 || n > order[i - 1]!)), `unknown → claims released → work returned → expired, got ${order.join(', ')}`);
  // Another agent's item is untouched, and the returned item is pullable by anyone again.
  assert.equal(h.core.state.work.get(other)!.status, 'in_progress');
  complete(h, boreas.caller, other);
  assert.equal(pull(h, boreas).item?.id, id);
});

test('a verifier that expires mid-review frees the item for another verifier', () => {
  const { h, atlas, vera, vik } = orchestrationFleet();
  const id = add(h, { title: 't', criteria: ['c1'] }).id;
  pull(h, atlas);
  complete(h, atlas.caller, id, ['c1']);
  assert.equal(pull(h, vera).item?.id, id);
  assert.equal(pull(h, vik).item, null);
  passTwiceTtl(h, [vik, atlas]);
  const item = h.core.state.work.get(id)!;
  assert.equal(item.status, 'review');
  assert.equal(item.verifier, undefined);
  assert.equal(item.statusReason, 'VERA went silent and expired');
  assert.equal(pull(h, vik).item?.id, id);
});

test('an agent that leaves returns its items the same way, with "left" as the reason', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const id = add(h, { title: 't', ...withPaths(['src/**']) }).id;
  pull(h, atlas);
  h.core.run(atlas.caller, (ctx) => leave(ctx, atlas.caller));
  const item = h.core.state.work.get(id)!;
  assert.equal(item.status, 'ready');
  assert.equal(item.statusReason, 'ATLAS left');
  assert.equal(h.core.state.claims.size, 0);
});

test('items in review, verified or done stay put when their builder expires', () => {
  const { h, atlas, vera } = orchestrationFleet();
  const id = add(h, { title: 't', criteria: ['c1'] }).id;
  pull(h, atlas);
  complete(h, atlas.caller, id, ['c1']);
  passTwiceTtl(h, [vera]);
  assert.equal(h.core.state.agents.get(atlas.agentId)!.gone, 'expired');
  assert.equal(h.core.state.work.get(id)!.status, 'review');
  assert.equal(pull(h, vera).item?.id, id, 'still reviewable');
});
