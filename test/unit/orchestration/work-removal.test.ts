import assert from 'node:assert/strict';
import { test } from 'node:test';
import { removeWork } from '../../../server/core/work-removal.js';
import { OPERATOR, expectRefusedUnchanged, restoreHarness } from '../../support/core-harness.js';
import { add, decide, decision, orchestrationFleet } from '../../support/orchestration-harness.js';

const rollBack = (h: ReturnType<typeof orchestrationFleet>['h'], id: string) => decide(h, OPERATOR, id, decision('rollback', 'not-needed'));

test('finished items leave the queue, all or nothing; the state replayed from the log agrees', () => {
  const { h } = orchestrationFleet();
  const epic = add(h, { title: 'wave 1', kind: 'epic' }).id;
  const task = add(h, { title: 'lexer', parent: epic }).id;
  const keep = add(h, { title: 'unrelated' }).id;
  rollBack(h, task);
  rollBack(h, epic);

  const removed = h.core.run(OPERATOR, (ctx) => removeWork(ctx, OPERATOR, [epic, task]));
  assert.deepEqual(removed.sort(), [epic, task].sort());
  assert.deepEqual([...h.core.state.work.keys()], [keep]);
  const replayed = restoreHarness({ snapshot: null, tail: h.events });
  assert.deepEqual([...replayed.core.state.work.keys()], [keep], 'the reducer removes them on replay too');
});

test('refused, changing nothing: an open item, a parent or dependency of an item that stays, an unknown id, a worker', () => {
  const { h, atlas } = orchestrationFleet();
  const open = add(h, { title: 'still ready' }).id;
  const epic = add(h, { title: 'wave', kind: 'epic' }).id;
  const child = add(h, { title: 'child', parent: epic }).id;
  const base = add(h, { title: 'base' }).id;
  add(h, { title: 'needs base', dependsOn: [base] });
  rollBack(h, epic);
  rollBack(h, base);

  assert.match(expectRefusedUnchanged(h, OPERATOR, 'INVALID_STATE', (ctx) => removeWork(ctx, OPERATOR, [open])).message, /is ready: only done or rolled-back work leaves the queue/);
  assert.match(expectRefusedUnchanged(h, OPERATOR, 'INVALID_STATE', (ctx) => removeWork(ctx, OPERATOR, [epic])).message, new RegExp(`${child} \\(ready\\) still depends on ${epic}`));
  expectRefusedUnchanged(h, OPERATOR, 'INVALID_STATE', (ctx) => removeWork(ctx, OPERATOR, [base]));
  expectRefusedUnchanged(h, OPERATOR, 'NOT_FOUND', (ctx) => removeWork(ctx, OPERATOR, ['wk_nope']));
  expectRefusedUnchanged(h, atlas.caller, 'FORBIDDEN', (ctx) => removeWork(ctx, atlas.caller, [base]));
  assert.equal(h.core.state.work.size, 5);
});
