import assert from 'node:assert/strict';
import { test } from 'node:test';
import { limits, type FleetEvent } from '../../../contracts/index.js';
import type { Caller } from '../../../server/core/context.js';
import { readMemos, writeMemo, type MemoWrite } from '../../../server/core/memos.js';
import { OPERATOR, expectRefusedUnchanged, joinAgent, makeHarness, restoreHarness, runRecording, type Harness } from '../../support/core-harness.js';

const write = (h: Harness, caller: Caller, req: MemoWrite) => runRecording(h, caller, (ctx) => writeMemo(ctx, caller, req));
const read = (h: Harness, query: { key?: string; prefix?: string }) => h.core.run(undefined, (ctx) => readMemos(ctx, query));

test('each write of a key bumps its version and records value, author and time', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const first = write(h, atlas.caller, { key: 'plan/api', value: { step: 1 } });
  assert.equal(first.result.written, true);
  assert.equal(first.result.memo!.version, 1);
  assert.equal(first.result.memo!.updatedBy, 'ATLAS');
  assert.equal(first.result.memo!.updatedAt, h.clock.now());
  assert.deepEqual(first.emitted.map((e) => e.type), ['memo.written']);
  h.clock.advance(1_000);
  const second = write(h, OPERATOR, { key: 'plan/api', value: { step: 2 } });
  assert.equal(second.result.memo!.version, 2);
  assert.equal(second.result.memo!.updatedBy, 'dana');
  assert.deepEqual(read(h, { key: 'plan/api' })[0]!.value, { step: 2 });
});

test('compare-and-set: a matching expectedVersion writes; a mismatch writes nothing and returns the current memo', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const boreas = joinAgent(h, 'BOREAS');
  write(h, atlas.caller, { key: 'k', value: 'a' });
  assert.equal(write(h, atlas.caller, { key: 'k', value: 'b', expectedVersion: 1 }).result.written, true);
  const stale = write(h, boreas.caller, { key: 'k', value: 'c', expectedVersion: 1 });
  assert.equal(stale.result.written, false);
  assert.equal(stale.result.memo!.version, 2);
  assert.equal(stale.result.memo!.value, 'b');
  assert.deepEqual(stale.emitted, [], 'a lost compare-and-set changes nothing');
  assert.equal(read(h, { key: 'k' })[0]!.value, 'b');
  assert.equal(read(h, { key: 'k' })[0]!.updatedBy, 'ATLAS');
});

test('expectedVersion 0 creates only: it succeeds on an absent key and fails on an existing one', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const boreas = joinAgent(h, 'BOREAS');
  const created = write(h, atlas.caller, { key: 'owner', value: 'ATLAS', expectedVersion: 0 });
  assert.equal(created.result.written, true);
  assert.equal(created.result.memo!.version, 1);
  const second = write(h, boreas.caller, { key: 'owner', value: 'BOREAS', expectedVersion: 0 });
  assert.equal(second.result.written, false);
  assert.deepEqual(second.emitted, []);
  assert.equal(read(h, { key: 'owner' })[0]!.value, 'ATLAS');
});

test('a mismatched expectedVersion on an absent key writes nothing', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const out = write(h, atlas.caller, { key: 'nope', value: 1, expectedVersion: 3 });
  assert.equal(out.result.written, false);
  assert.equal(out.result.memo, undefined);
  assert.deepEqual(out.emitted, []);
  assert.deepEqual(read(h, { key: 'nope' }), []);
});

test('reading by prefix returns matching memos sorted by key; by key returns one or none', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  for (const key of ['plan/b', 'notes', 'plan/a', 'planx']) write(h, atlas.caller, { key, value: key });
  assert.deepEqual(read(h, { prefix: 'plan/' }).map((m) => m.key), ['plan/a', 'plan/b']);
  assert.deepEqual(read(h, {}).map((m) => m.key), ['notes', 'plan/a', 'plan/b', 'planx']);
  assert.deepEqual(read(h, { key: 'missing' }), []);
});

test('memo versions are per key', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  write(h, atlas.caller, { key: 'a', value: 1 });
  write(h, atlas.caller, { key: 'a', value: 2 });
  assert.equal(write(h, atlas.caller, { key: 'b', value: 1 }).result.memo!.version, 1);
});

const fill = (h: Harness, caller: Caller, prefix: string, count: number) => {
  for (let i = 0; i < count; i++) write(h, caller, { key: `${prefix}/${i}`, value: i });
};

test('one writer may create memosPerWriter memos; the next new key is refused with LIMIT_REACHED, a rewrite still works', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const boreas = joinAgent(h, 'BOREAS');
  fill(h, atlas.caller, 'atlas', limits.memosPerWriter.max);
  const refused = expectRefusedUnchanged(h, atlas.caller, 'LIMIT_REACHED', (ctx) => writeMemo(ctx, atlas.caller, { key: 'atlas/one-more', value: 1 }));
  assert.match(refused.message, new RegExp(`ATLAS last wrote ${limits.memosPerWriter.max} memos, the limit of ${limits.memosPerWriter.max}.*rewrite one of your keys`));
  assert.equal(write(h, atlas.caller, { key: 'atlas/0', value: 'updated' }).result.written, true, 'rewriting an existing key is always allowed');
  assert.equal(write(h, boreas.caller, { key: 'boreas/0', value: 1 }).result.written, true, 'one writer at its limit leaves room for the others');
});

test('the fleet holds at most memosPerFleet memos; past it no writer creates a key, every writer may rewrite', () => {
  const h = makeHarness();
  const writers = Math.ceil(limits.memosPerFleet.max / limits.memosPerWriter.max);
  const agents = Array.from({ length: writers + 1 }, (_, i) => joinAgent(h, `AGENT${i}`));
  let left = limits.memosPerFleet.max;
  agents.slice(0, writers).forEach((agent, i) => {
    const count = Math.min(left, limits.memosPerWriter.max);
    fill(h, agent.caller, `a${i}`, count);
    left -= count;
  });
  const fresh = agents[writers]!;
  const refused = expectRefusedUnchanged(h, fresh.caller, 'LIMIT_REACHED', (ctx) => writeMemo(ctx, fresh.caller, { key: 'fresh', value: 1 }));
  assert.match(refused.message, new RegExp(`the fleet holds ${limits.memosPerFleet.max} memos, its limit of ${limits.memosPerFleet.max}`));
  assert.equal(write(h, fresh.caller, { key: 'a0/0', value: 'taken over' }).result.written, true);
  assert.equal(read(h, {}).length, limits.memosPerFleet.max);
});

test('replay never refuses a recorded memo: a log holding more memos than the limits allow restores them all', () => {
  const count = limits.memosPerFleet.max + 10;
  const tail: FleetEvent[] = Array.from({ length: count }, (_, i) => ({ seq: i + 1, at: 0, type: 'memo.written', by: 'ATLAS', key: `old/${i}`, value: i === 0 ? 'x'.repeat(limits.json.max + 1) : i, version: 1 }));
  const h = restoreHarness({ snapshot: null, tail });
  assert.equal(read(h, { prefix: 'old/' }).length, count);
});
