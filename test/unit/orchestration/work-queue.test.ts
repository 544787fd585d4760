import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addWork, pullWork } from '../../../server/core/work-queue.js';
import { OPERATOR, claimNow, eventsOfType, expectRefusedUnchanged, joinAgent, makeHarness, runRecording } from '../../support/core-harness.js';
import { add, complete, decide, decision, orchestrationFleet, passReport, pull, toVerified, verify, withPaths } from '../../support/orchestration-harness.js';

// --- the goal hierarchy -------------------------------------------------------------------------

test('hierarchy: telos → epic → story → task, each child strictly below its parent', () => {
  const h = makeHarness();
  const telos = add(h, { title: 'ship it', kind: 'telos' });
  const epic = add(h, { title: 'backend', kind: 'epic', parent: telos.id });
  const story = add(h, { title: 'api', kind: 'story', parent: epic.id });
  const task = add(h, { title: 'endpoint', parent: story.id });
  assert.equal(task.kind, 'task', 'kind defaults to task');
  assert.equal(task.parent, story.id);
  const refusals: [string, string][] = [
    ['telos', telos.id],
    ['epic', epic.id],
    ['epic', story.id],
    ['story', story.id],
    ['story', task.id],
    ['task', task.id],
  ];
  for (const [kind, parent] of refusals) {
    const error = expectRefusedUnchanged(h, OPERATOR, 'INVALID_PARAMS', (ctx) => addWork(ctx, OPERATOR, { title: 'x', kind: kind as 'task', parent }));
    assert.match(error.message, /telos → epic → story → task/);
  }
  expectRefusedUnchanged(h, OPERATOR, 'NOT_FOUND', (ctx) => addWork(ctx, OPERATOR, { title: 'x', parent: 'wk-missing' }));
});

test('an item with children is a container: never pulled itself; its leaves are', () => {
  const { h, atlas } = orchestrationFleet();
  const story = add(h, { title: 'story', kind: 'story' });
  const task = add(h, { title: 'task', parent: story.id });
  assert.equal(pull(h, atlas).item?.id, task.id);
  assert.equal(pull(h, atlas).item, null, 'the story itself is not work to pull');
  assert.equal(h.core.state.work.get(story.id)!.status, 'ready');
});

test('a leaf story or epic is pullable like a task', () => {
  const { h, atlas } = orchestrationFleet();
  const epic = add(h, { title: 'small epic', kind: 'epic' });
  assert.equal(pull(h, atlas).item?.id, epic.id);
});

test('items whose paths need a repository are refused without one; paths are stored canonical', () => {
  const h = makeHarness();
  expectRefusedUnchanged(h, OPERATOR, 'INVALID_PARAMS', (ctx) => addWork(ctx, OPERATOR, { title: 'x', paths: ['src/**'] }));
  const { result, emitted } = runRecording(h, OPERATOR, (ctx) => addWork(ctx, OPERATOR, { title: 'x', ...withPaths(['src/**', 'docs/']) }));
  assert.deepEqual(result.paths, ['src/**', 'docs/**']);
  assert.equal(emitted.length, 1);
  assert.equal(emitted[0]!.type, 'work.added');
  assert.equal(emitted[0]!.by, 'dana');
});

// --- dependencies -------------------------------------------------------------------------------

test('dependencies gate pull: an item becomes pullable only once every dependency is done', () => {
  const { h, atlas, boreas, vera, rte } = orchestrationFleet();
  const a = add(h, { title: 'a', criteria: ['c1'] }).id;
  const b = add(h, { title: 'b', criteria: ['c1'] }).id;
  const c = add(h, { title: 'c', dependsOn: [a, b, a] });
  assert.deepEqual(c.dependsOn, [a, b], 'duplicates are dropped');
  assert.equal(toVerified(h, atlas, vera), a);
  assert.equal(pull(h, boreas).item?.id, b);
  assert.equal(pull(h, atlas).item, null, 'a is only verified, b in progress: c waits');
  decide(h, rte.caller, a, decision('accept'));
  assert.equal(pull(h, atlas).item, null, 'b is not done yet');
  complete(h, boreas.caller, b, ['c1']);
  assert.equal(pull(h, atlas).item, null, 'b in review is not done');
  assert.equal(pull(h, vera).item?.id, b);
  verify(h, vera.caller, b, passReport(['c1']));
  assert.equal(pull(h, atlas).item, null, 'b verified is not done');
  decide(h, rte.caller, b, decision('accept'));
  assert.equal(pull(h, atlas).item?.id, c.id);
});

test('a dependency must exist when the item is added (so cycles cannot be built)', () => {
  const h = makeHarness();
  expectRefusedUnchanged(h, OPERATOR, 'NOT_FOUND', (ctx) => addWork(ctx, OPERATOR, { title: 'x', dependsOn: ['wk-later'] }));
});

test('a dependency that was rolled back keeps its dependents out of the queue', () => {
  const { h, atlas, vera, rte } = orchestrationFleet();
  const a = add(h, { title: 'a', criteria: ['c1'] }).id;
  add(h, { title: 'b', dependsOn: [a] });
  toVerified(h, atlas, vera);
  decide(h, rte.caller, a, { ...decision('rollback', 'broke-main'), rollbackRef: 'c0ffee1' });
  assert.equal(pull(h, atlas).item, null);
});

// --- queue order, atomic pull, paths ------------------------------------------------------------

test('pull gives the oldest pullable item, and two agents never get the same item', () => {
  const { h, atlas, boreas } = orchestrationFleet();
  const ids = [1, 2, 3].map((n) => add(h, { title: `t${n}` }).id);
  assert.equal(pull(h, atlas).item?.id, ids[0]);
  assert.equal(pull(h, boreas).item?.id, ids[1]);
  assert.equal(pull(h, atlas).item?.id, ids[2]);
  assert.equal(pull(h, boreas).item, null);
  const starts = eventsOfType(h.events, 'work.transitioned').filter((e) => e.status === 'in_progress');
  assert.deepEqual(starts.map((e) => e.itemId), ids);
});

test("pull claims the item's paths exclusively in the same step, with the item named in the reason", () => {
  const { h, atlas, boreas } = orchestrationFleet();
  const id = add(h, { title: 'parser', ...withPaths(['src/parser/**', 'docs/parser.md']) }).id;
  const { result, emitted } = runRecording(h, atlas.caller, (ctx) => pullWork(ctx, atlas.caller, h.core.queue));
  assert.deepEqual(result.claims.map((c) => c.pattern), ['src/parser/**', 'docs/parser.md']);
  assert.deepEqual(emitted.map((e) => e.type), ['claim.granted', 'claim.granted', 'work.transitioned'], 'claims and the start are one command');
  for (const claim of eventsOfType(emitted, 'claim.granted')) {
    assert.equal(claim.mode, 'exclusive');
    assert.equal(claim.agentId, atlas.agentId);
    assert.equal(claim.reason, `work ${id}: parser`);
  }
  const blocked = claimNow(h, boreas.caller, { patterns: ['src/parser/x.ts'] });
  assert.equal(blocked.granted, false);
});

test('items whose paths are held are skipped, not waited on: the next free item is pulled instead', () => {
  const { h, atlas, boreas } = orchestrationFleet();
  const first = add(h, { title: 'first', ...withPaths(['src/shared/**']) }).id;
  const second = add(h, { title: 'second', ...withPaths(['src/shared/util.ts']) }).id;
  const third = add(h, { title: 'third', ...withPaths(['src/other/**']) }).id;
  assert.equal(pull(h, atlas).item?.id, first);
  const out = pull(h, boreas);
  assert.equal(out.item?.id, third, 'second overlaps what ATLAS holds');
  assert.equal(h.core.state.work.get(second)!.status, 'ready');
  complete(h, atlas.caller, first);
  assert.equal(pull(h, boreas).item?.id, second, 'free again once ATLAS completed first');
});

test("an item whose paths another agent holds by hand is skipped; the holder's own claims do not block it", () => {
  const { h, atlas, boreas } = orchestrationFleet();
  claimNow(h, atlas.caller, { patterns: ['src/**'] });
  const id = add(h, { title: 't', ...withPaths(['src/a.ts']) }).id;
  assert.equal(pull(h, boreas).item, null);
  assert.equal(pull(h, atlas).item?.id, id);
});

test('a shared claim of another agent also keeps an item (claimed exclusively) out of reach', () => {
  const { h, atlas, boreas } = orchestrationFleet();
  claimNow(h, atlas.caller, { patterns: ['docs/**'], mode: 'shared' });
  add(h, { title: 't', ...withPaths(['docs/a.md']) });
  assert.equal(pull(h, boreas).item, null);
});

test('a pull with nothing pullable returns null and changes nothing', () => {
  const { h, atlas } = orchestrationFleet();
  const { result, emitted } = runRecording(h, atlas.caller, (ctx) => pullWork(ctx, atlas.caller, h.core.queue));
  assert.deepEqual(result, { item: null, claims: [] });
  assert.deepEqual(emitted, []);
});

test('the operator and unjoined callers cannot pull; RTEs get nothing to build', () => {
  const { h, rte } = orchestrationFleet();
  add(h, { title: 't' });
  expectRefusedUnchanged(h, OPERATOR, 'NOT_JOINED', (ctx) => pullWork(ctx, OPERATOR, h.core.queue));
  assert.equal(pull(h, rte).item, null);
});

// --- role and tier ------------------------------------------------------------------------------

test('role constraints: builder items go to builders and workers alike; other roles only to that role', () => {
  const h = makeHarness();
  const worker = joinAgent(h, 'WORKER');
  const builder = joinAgent(h, 'BUILDER', { role: 'builder' });
  const forBuilders = add(h, { title: 'b', role: 'builder' }).id;
  const forWorkers = add(h, { title: 'w', role: 'worker' }).id;
  assert.equal(pull(h, worker).item?.id, forBuilders);
  assert.equal(pull(h, builder).item?.id, forWorkers);
  const rteOnly = add(h, { title: 'r', role: 'rte' }).id;
  assert.equal(pull(h, worker).item, null, 'an item for an RTE is not a worker item');
  assert.equal(h.core.state.work.get(rteOnly)!.status, 'ready');
});

test('tier constraints: an edge item only for edge agents, a local item only for local ones, an untiered task for local ones (edge pulls coarser work: edge-tier.test.ts)', () => {
  const h = makeHarness();
  const local = joinAgent(h, 'LOCAL', { role: 'builder' });
  const edge = joinAgent(h, 'EDGE', { role: 'builder', tier: 'edge' });
  const edgeItem = add(h, { title: 'edge', tier: 'edge' }).id;
  const localItem = add(h, { title: 'local', tier: 'local' }).id;
  const anyItem = add(h, { title: 'any' }).id;
  assert.equal(pull(h, local).item?.id, localItem);
  assert.equal(pull(h, local).item?.id, anyItem);
  assert.equal(pull(h, local).item, null);
  assert.equal(pull(h, edge).item?.id, edgeItem);
  assert.equal(pull(h, edge).item, null);
});

test(
  "a parent's dependencies hold its children: a task under a story that depends on unfinished work is not pullable",
  () => {
    const { h, atlas } = orchestrationFleet();
    const foundation = add(h, { title: 'foundation', kind: 'story' });
    add(h, { title: 'foundation task', parent: foundation.id, role: 'rte' }); // keeps the foundation story unfinished
    const story = add(h, { title: 'built on it', kind: 'story', dependsOn: [foundation.id] });
    add(h, { title: 'task of the dependent story', parent: story.id });
    assert.equal(pull(h, atlas).item, null, 'the task started before the story it belongs to may start');
  },
);
