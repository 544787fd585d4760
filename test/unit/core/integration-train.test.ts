// The train's pure queue state (server/core/integration-train.ts): claims held for an item through
// complete until it lands, the queue and batches, and that a state rebuilt from the log or from a
// snapshot agrees with the live one (one reducer path).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { endBatch, nextBatch, queueLanding, recordBatch, recordLanded, returnToBuilder } from '../../../server/core/integration-train.js';
import { toPersisted } from '../../../server/core/state.js';
import { OPERATOR, expectRefusedUnchanged, restoreHarness } from '../../support/core-harness.js';
import { add, artifact, decide, decision, mayWrite, orchestrationFleet, passReport, pull, update, verify, withPaths } from '../../support/orchestration-harness.js';

const integration = (commit: string) => ({ branch: 'atlas-work', commit, target: 'main', repository: '/repo/.git', writeSet: ['src/a.ts'] });

test('an item completed on a branch of its own keeps its changed paths held until it lands; the queue, batches and landing replay the same from the log and from a snapshot', () => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  const { id } = add(h, { title: 'a and b', criteria: ['c1'], ...withPaths(['src/a.ts', 'src/b.ts']) });
  pull(h, atlas);
  update(h, atlas.caller, id, { action: 'complete', artifact: artifact(['c1']), integration: integration('a'.repeat(40)) });
  assert.deepEqual([...h.core.state.claims.values()].map((c) => [c.pattern, c.heldFor]), [['src/a.ts', id]], 'narrowed to the write-set');
  assert.equal(mayWrite(h, atlas.caller, 'src/a.ts'), false, 'not its builder\'s to write under');
  assert.equal(mayWrite(h, OPERATOR, 'src/a.ts'), false, 'nor anyone else\'s');
  assert.equal(mayWrite(h, OPERATOR, 'src/b.ts'), true, 'the unchanged path went back to the fleet');

  pull(h, vera);
  verify(h, vera.caller, id, passReport(['c1']));
  // Not landable before it is accepted.
  expectRefusedUnchanged(h, rte.caller, 'INVALID_STATE', (ctx) => queueLanding(ctx, rte.caller, { scope: 'x', itemId: id, branch: 'b', commit: 'c', target: 'main', repository: '/r' }));
  decide(h, rte.caller, id, decision('accept'));
  const item = h.core.state.work.get(id)!;
  h.core.run(rte.caller, (ctx) => queueLanding(ctx, rte.caller, { scope: item.scope!, itemId: id, ...item.integration! }));
  assert.equal(h.core.state.work.get(id)!.status, 'landing');
  assert.deepEqual(nextBatch(h.core.state, item.scope!).map((e) => e.itemId), [id]);
  h.core.run(undefined, (ctx) => recordBatch(ctx, { scope: item.scope!, itemIds: [id], base: 'b'.repeat(40) }));
  assert.deepEqual(nextBatch(h.core.state, item.scope!), [], 'one batch at a time');

  // The replayed state and a snapshot of the live one agree mid-batch (what a restart resumes from).
  const midway = restoreHarness({ snapshot: null, tail: h.events });
  assert.deepEqual(toPersisted(midway.core.state).trainBatches, toPersisted(h.core.state).trainBatches);
  const fromSnapshot = restoreHarness({ snapshot: toPersisted(h.core.state), tail: [] });
  assert.deepEqual(fromSnapshot.core.state.train.get(id)?.status, 'building');
  assert.deepEqual([...fromSnapshot.core.indexes.claimsHeldFor.keys()], [id], 'the held claims index is rebuilt on load');

  h.core.run(undefined, (ctx) => {
    recordLanded(ctx, id, 'c'.repeat(40), 'plane');
    endBatch(ctx, item.scope!);
  });
  assert.equal(h.core.state.work.get(id)!.status, 'landed');
  assert.equal(h.core.state.work.get(id)!.landedCommit, 'c'.repeat(40));
  assert.equal(h.core.state.claims.size, 0, 'landing released the held claims');
  const replayed = restoreHarness({ snapshot: null, tail: h.events });
  assert.deepEqual(toPersisted(replayed.core.state).train, toPersisted(h.core.state).train);
  assert.deepEqual(toPersisted(replayed.core.state).work, toPersisted(h.core.state).work);
});

test('an item the train returns is a rework round; pulled again, its held claims become its builder\'s', () => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  const { id } = add(h, { title: 'a', criteria: ['c1'], ...withPaths(['src/a.ts']) });
  pull(h, atlas);
  update(h, atlas.caller, id, { action: 'complete', artifact: artifact(['c1']), integration: integration('a'.repeat(40)) });
  pull(h, vera);
  verify(h, vera.caller, id, passReport(['c1']));
  decide(h, rte.caller, id, decision('accept'));
  h.core.run(OPERATOR, (ctx) => queueLanding(ctx, OPERATOR, { scope: h.core.state.work.get(id)!.scope!, itemId: id, ...h.core.state.work.get(id)!.integration! }));
  h.core.run(undefined, (ctx) => returnToBuilder(ctx, id, 'conflict', 'atlas-work conflicts with main in src/a.ts'));
  const item = h.core.state.work.get(id)!;
  assert.deepEqual([item.status, item.reworkRounds, item.statusReason], ['rework', 1, 'atlas-work conflicts with main in src/a.ts']);
  assert.equal([...h.core.state.claims.values()][0]?.heldFor, id, 'held until its builder takes it back');
  assert.equal(pull(h, atlas).item?.id, id);
  assert.deepEqual([...h.core.state.claims.values()].map((c) => [c.pattern, c.heldFor, c.agentId]), [['src/a.ts', undefined, atlas.agentId]]);
  assert.equal(mayWrite(h, atlas.caller, 'src/a.ts'), true);
});
