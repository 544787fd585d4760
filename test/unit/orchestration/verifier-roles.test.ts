import assert from 'node:assert/strict';
import { test } from 'node:test';
import { claim } from '../../../server/core/claim.js';
import { transfer } from '../../../server/core/territory.js';
import { updateWork } from '../../../server/core/work-lifecycle.js';
import { OPERATOR, SCOPE, claimNow, expectRefusedUnchanged } from '../../support/core-harness.js';
import { add, artifact, complete, handoff, mayWrite, orchestrationFleet, pull, respond, withPaths } from '../../support/orchestration-harness.js';

test('a verifier cannot claim territory: FORBIDDEN, nothing granted', () => {
  const { h, vera } = orchestrationFleet();
  for (const mode of ['exclusive', 'shared'] as const) {
    expectRefusedUnchanged(h, vera.caller, 'FORBIDDEN', (ctx) => claim(ctx, vera.caller, { scope: SCOPE, patterns: ['src/**'], mode }, h.core.queue));
  }
  assert.equal(mayWrite(h, vera.caller, 'src/a.ts'), false);
});

test('a verifier cannot complete work, even an item assigned to it', () => {
  const { h, atlas, vera } = orchestrationFleet();
  const id = add(h, { title: 't', ...withPaths(['src/t/**']) }).id;
  pull(h, atlas);
  expectRefusedUnchanged(h, vera.caller, 'FORBIDDEN', (ctx) => updateWork(ctx, vera.caller, id, { action: 'complete', artifact: artifact() }));
  // Even when the item's assignment reaches it through a handoff, a verifier does not build.
  const ho = handoff(h, atlas, { to: { callsign: 'VERA' }, workItem: id });
  respond(h, vera, ho.id, true);
  assert.equal(h.core.state.work.get(id)!.assignee, vera.agentId);
  expectRefusedUnchanged(h, vera.caller, 'FORBIDDEN', (ctx) => updateWork(ctx, vera.caller, id, { action: 'complete', artifact: artifact() }));
});

test('a verifier pulls only items awaiting review, and gets no claims with them', () => {
  const { h, atlas, vera } = orchestrationFleet();
  const id = add(h, { title: 't', ...withPaths(['src/t/**']) }).id;
  add(h, { title: 'other ready work', ...withPaths(['src/u/**']) });
  assert.equal(pull(h, vera).item, null, 'ready work is for builders');
  pull(h, atlas);
  complete(h, atlas.caller, id);
  const review = pull(h, vera);
  assert.equal(review.item?.id, id);
  assert.deepEqual(review.claims, []);
  assert.equal([...h.core.state.claims.values()].filter((c) => c.agentId === vera.agentId).length, 0);
});

test('a handoff cannot carry write territory to a verifier', () => {
  const { h, atlas, vera } = orchestrationFleet();
  const held = claimNow(h, atlas.caller, { patterns: ['src/**'] });
  const ho = handoff(h, atlas, { to: { callsign: 'VERA' }, claims: [held.claims[0]!.id] });
  try {
    respond(h, vera, ho.id, true);
  } catch {
    // refusing the acceptance is one acceptable answer
  }
  assert.equal(mayWrite(h, vera.caller, 'src/a.ts'), false, 'the verifier may write src/a.ts after accepting');
  assert.equal([...h.core.state.claims.values()].filter((c) => c.agentId === vera.agentId).length, 0, 'the verifier holds claims');
});

test('a claim transfer cannot give write territory to a verifier', () => {
  const { h, atlas, vera } = orchestrationFleet();
  const held = claimNow(h, atlas.caller, { patterns: ['src/**'] });
  try {
    h.core.run(OPERATOR, (ctx) => transfer(ctx, OPERATOR, [held.claims[0]!.id], 'VERA'));
  } catch {
    // refusing is the expected answer
  }
  assert.equal(mayWrite(h, vera.caller, 'src/a.ts'), false, 'the verifier may write src/a.ts after the transfer');
});
