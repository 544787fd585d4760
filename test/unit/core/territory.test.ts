import assert from 'node:assert/strict';
import { test } from 'node:test';
import { claim } from '../../../server/core/claim.js';
import { checkPaths } from '../../../server/core/path-check.js';
import { forceRelease, release, renew, transfer } from '../../../server/core/territory.js';
import { leave } from '../../../server/core/roster.js';
import {
  OPERATOR,
  OTHER_SCOPE,
  SCOPE,
  TTL_MS,
  claimNow,
  eventsOfType,
  expectFleetError,
  expectRefusedUnchanged,
  iso,
  joinAgent,
  makeHarness,
  runRecording,
} from '../../support/core-harness.js';

function twoAgents() {
  const h = makeHarness();
  return { h, atlas: joinAgent(h, 'ATLAS'), boreas: joinAgent(h, 'BOREAS') };
}

test('a multi-pattern claim is granted whole: one claim and one fence per pattern', () => {
  const { h, atlas } = twoAgents();
  const out = claimNow(h, atlas.caller, { patterns: ['src/**', 'docs/*.md', 'README.md'], reason: 'refactor' });
  assert.equal(out.granted, true);
  assert.equal(out.refusedBy, undefined);
  assert.deepEqual(out.conflicts, []);
  assert.deepEqual(out.claims.map((c) => c.pattern), ['src/**', 'docs/*.md', 'README.md']);
  assert.deepEqual(out.claims.map((c) => c.fence), [1, 2, 3]);
  assert.equal(h.core.state.claims.size, 3);
  const granted = eventsOfType(h.events, 'claim.granted');
  assert.ok(granted.every((e) => e.reason === 'refactor' && e.mode === 'exclusive' && e.agentId === atlas.agentId));
});

test('a multi-pattern claim with one conflicting pattern is refused whole (all-or-nothing) and emits nothing', () => {
  const { h, atlas, boreas } = twoAgents();
  claimNow(h, boreas.caller, { patterns: ['docs/**'] });
  const { result, emitted } = runRecording(h, atlas.caller, (ctx) => claim(ctx, atlas.caller, { scope: SCOPE, patterns: ['src/**', 'docs/api.md'] }, h.core.queue));
  assert.ok(!(result instanceof Promise));
  assert.equal(result.granted, false);
  assert.equal(result.refusedBy, 'conflict');
  assert.deepEqual(result.claims, []);
  assert.deepEqual(emitted, []);
  assert.equal([...h.core.state.claims.values()].filter((c) => c.agentId === atlas.agentId).length, 0, 'src/** must not be granted alone');
});

test('a conflict names the requested pattern, the holder, the held pattern and its expiry', () => {
  const { h, atlas, boreas } = twoAgents();
  const held = claimNow(h, boreas.caller, { patterns: ['src/api/**'], ttlSeconds: 600 });
  claimNow(h, boreas.caller, { patterns: ['docs/**'] });
  h.clock.advance(1_000);
  const out = claimNow(h, atlas.caller, { patterns: ['src/**/*.ts', 'docs/guide.md', 'free/**'] });
  assert.equal(out.granted, false);
  assert.equal(out.refusedBy, 'conflict');
  const byPattern = new Map(out.conflicts.map((c) => [c.pattern, c]));
  assert.equal(out.conflicts.length, 2);
  assert.deepEqual(
    { ...byPattern.get('src/**/*.ts') },
    { pattern: 'src/**/*.ts', holder: 'BOREAS', heldPattern: 'src/api/**', mode: 'exclusive', expiresAt: held.claims[0]!.expiresAt },
  );
  assert.equal(held.claims[0]!.expiresAt, iso(h.clock.now() - 1_000 + 600_000));
  const docs = byPattern.get('docs/guide.md')!;
  assert.equal(docs.holder, 'BOREAS');
  assert.equal(docs.heldPattern, 'docs/**');
  // A claim without a TTL lives as long as its agent: it lapses 2×TTL after the agent was last seen.
  assert.equal(docs.expiresAt, iso(h.core.state.agents.get(boreas.agentId)!.lastSeen + 2 * TTL_MS));
});

test('shared claims coexist; shared and exclusive conflict both ways', () => {
  const { h, atlas, boreas } = twoAgents();
  const cyrus = joinAgent(h, 'CYRUS');
  assert.equal(claimNow(h, atlas.caller, { patterns: ['package.json'], mode: 'shared' }).granted, true);
  assert.equal(claimNow(h, boreas.caller, { patterns: ['package.json'], mode: 'shared' }).granted, true);
  const exclusive = claimNow(h, cyrus.caller, { patterns: ['*.json'] });
  assert.equal(exclusive.granted, false);
  assert.deepEqual(exclusive.conflicts.map((c) => c.holder).sort(), ['ATLAS', 'BOREAS']);
  assert.ok(exclusive.conflicts.every((c) => c.mode === 'shared'));
  assert.equal(claimNow(h, cyrus.caller, { patterns: ['lib/**'] }).granted, true);
  const shared = claimNow(h, atlas.caller, { patterns: ['lib/x.ts'], mode: 'shared' });
  assert.equal(shared.granted, false);
  assert.equal(shared.conflicts[0]!.holder, 'CYRUS');
  assert.equal(shared.conflicts[0]!.mode, 'exclusive');
});

test('an agent’s own claims never conflict with its new claims', () => {
  const { h, atlas } = twoAgents();
  claimNow(h, atlas.caller, { patterns: ['src/**'] });
  assert.equal(claimNow(h, atlas.caller, { patterns: ['src/a.ts'] }).granted, true);
  assert.equal(claimNow(h, atlas.caller, { patterns: ['src/**/*.ts'], mode: 'shared' }).granted, true);
});

test('claims in different scopes never conflict', () => {
  const { h, atlas, boreas } = twoAgents();
  claimNow(h, atlas.caller, { patterns: ['src/**'] });
  assert.equal(claimNow(h, boreas.caller, { patterns: ['src/**'], scope: OTHER_SCOPE }).granted, true);
});

test('hidden files are no loophole: **/*.yml covers .github/workflows/ci.yml', () => {
  const { h, atlas, boreas } = twoAgents();
  claimNow(h, atlas.caller, { patterns: ['**/*.yml'] });
  const out = claimNow(h, boreas.caller, { patterns: ['.github/workflows/ci.yml'] });
  assert.equal(out.granted, false);
  assert.equal(out.conflicts[0]!.heldPattern, '**/*.yml');
});

test('a pattern ending in / is stored as the directory subtree', () => {
  const { h, atlas } = twoAgents();
  const out = claimNow(h, atlas.caller, { patterns: ['src/api/'] });
  assert.equal(out.claims[0]!.pattern, 'src/api/**');
});

test('refused patterns are INVALID_PARAMS and grant nothing', () => {
  const { h, atlas } = twoAgents();
  for (const bad of ['!src/**', '#x', '+(a|b)', '', '../x', '/abs/path', 'a/../b']) {
    expectRefusedUnchanged(h, atlas.caller, 'INVALID_PARAMS', (ctx) => claim(ctx, atlas.caller, { scope: SCOPE, patterns: ['ok/**', bad] }, h.core.queue));
  }
  assert.equal(h.core.state.claims.size, 0);
});

test('fences strictly increase per scope and are independent across scopes', () => {
  const { h, atlas, boreas } = twoAgents();
  const fences: number[] = [];
  fences.push(...claimNow(h, atlas.caller, { patterns: ['a/**', 'b/**'] }).claims.map((c) => c.fence));
  const other = claimNow(h, atlas.caller, { patterns: ['a/**'], scope: OTHER_SCOPE }).claims[0]!.fence;
  h.core.run(atlas.caller, (ctx) => release(ctx, atlas.caller, { scope: SCOPE, patterns: ['a/**', 'b/**'] }));
  fences.push(...claimNow(h, boreas.caller, { patterns: ['a/**'] }).claims.map((c) => c.fence));
  fences.push(...claimNow(h, atlas.caller, { patterns: ['c/**'] }).claims.map((c) => c.fence));
  assert.deepEqual(fences, [1, 2, 3, 4]);
  assert.equal(other, 1, 'another scope has its own counter');
  assert.equal(claimNow(h, boreas.caller, { patterns: ['z/**'], scope: OTHER_SCOPE }).claims[0]!.fence, 2);
});

test('retrying a request id returns the same grant (same ids and fences) and emits nothing', () => {
  const { h, atlas, boreas } = twoAgents();
  const first = claimNow(h, atlas.caller, { patterns: ['src/**', 'docs/**'], requestId: 'req-1' });
  const { result, emitted } = runRecording(h, atlas.caller, (ctx) => claim(ctx, atlas.caller, { scope: SCOPE, patterns: ['src/**', 'docs/**'], requestId: 'req-1' }, h.core.queue));
  assert.ok(!(result instanceof Promise));
  assert.equal(result.granted, true);
  assert.deepEqual(result.claims, first.claims);
  assert.deepEqual(emitted, []);
  // The same request id from another agent is another request.
  const theirs = claimNow(h, boreas.caller, { patterns: ['lib/**'], requestId: 'req-1' });
  assert.equal(theirs.granted, true);
  assert.notEqual(theirs.claims[0]!.id, first.claims[0]!.id);
});

test(
  'retrying a request id returns the same grant even when part of it reused a claim the agent already held',
  () => {
    const { h, atlas } = twoAgents();
    claimNow(h, atlas.caller, { patterns: ['src/**'] });
    const first = claimNow(h, atlas.caller, { patterns: ['src/**', 'docs/**'], requestId: 'req-2' });
    assert.equal(first.claims.length, 2);
    const retry = claimNow(h, atlas.caller, { patterns: ['src/**', 'docs/**'], requestId: 'req-2' });
    assert.deepEqual(retry.claims, first.claims);
  },
);

test(
  'a retried request id never reports claims that are no longer live as granted',
  () => {
    const { h, atlas, boreas } = twoAgents();
    claimNow(h, atlas.caller, { patterns: ['src/**'], requestId: 'req-3', ttlSeconds: 10 });
    h.clock.advance(10_000);
    h.core.sweep();
    claimNow(h, boreas.caller, { patterns: ['src/**'] });
    const retry = claimNow(h, atlas.caller, { patterns: ['src/**'], requestId: 'req-3' });
    if (retry.granted) {
      for (const c of retry.claims) assert.equal(h.core.state.claims.get(c.id)?.agentId, atlas.agentId, `claim ${c.id} reported granted but is not live`);
    }
  },
);

test('claiming a pattern already held identically reuses the claim (no second claim, same fence)', () => {
  const { h, atlas } = twoAgents();
  const first = claimNow(h, atlas.caller, { patterns: ['src/**'] });
  const { result, emitted } = runRecording(h, atlas.caller, (ctx) => claim(ctx, atlas.caller, { scope: SCOPE, patterns: ['src/**'] }, h.core.queue));
  assert.ok(!(result instanceof Promise));
  assert.deepEqual(result.claims, first.claims);
  assert.deepEqual(emitted, []);
  assert.equal(h.core.state.claims.size, 1);
});

test('reuse finds the identical claim among many, and only an identical one of the same holder and mode', () => {
  const { h, atlas, boreas } = twoAgents();
  claimNow(h, atlas.caller, { patterns: Array.from({ length: 100 }, (_, i) => `src/area-${i % 7}/file-${i}.ts`) });
  const file = claimNow(h, atlas.caller, { patterns: ['src/area-3/file-42.ts', '{lib,test}/**'] });
  claimNow(h, boreas.caller, { patterns: ['docs/**'], mode: 'shared' });
  const claimsBefore = h.core.state.claims.size;
  const again = runRecording(h, atlas.caller, (ctx) => claim(ctx, atlas.caller, { scope: SCOPE, patterns: ['src/area-3/file-42.ts', '{lib,test}/**'] }, h.core.queue));
  assert.ok(!(again.result instanceof Promise));
  assert.deepEqual(again.result.claims.map((c) => c.id), file.claims.map((c) => c.id), 'the literal file and the brace pattern are both reused');
  assert.deepEqual(again.emitted, []);
  // Another holder's identical claim, or the same pattern in another mode, is no reuse: new claims.
  const shared = claimNow(h, atlas.caller, { patterns: ['docs/**'], mode: 'shared' });
  const otherMode = claimNow(h, atlas.caller, { patterns: ['lib/util/**'], mode: 'shared' });
  const exclusiveAgain = claimNow(h, atlas.caller, { patterns: ['lib/util/**'] });
  assert.notEqual(exclusiveAgain.claims[0]!.id, otherMode.claims[0]!.id);
  assert.equal(h.core.state.claims.size, claimsBefore + 3);
  assert.equal(h.core.state.claims.get(shared.claims[0]!.id)!.agentId, atlas.agentId);
});

test('reuse tells apart patterns kept at one node of the index: same prefix, or none at all', () => {
  const { h, atlas } = twoAgents();
  // All of src/a's patterns sit at the index node src/a, both ** globs at the root.
  const kept = ['src/a/**', 'src/a/*', 'src/a/{x,y}.ts', '**/*.ts', '**/*.js'];
  const held = claimNow(h, atlas.caller, { patterns: kept }).claims;
  assert.equal(held.length, kept.length);
  for (const [i, pattern] of kept.entries()) {
    assert.deepEqual(claimNow(h, atlas.caller, { patterns: [pattern] }).claims.map((c) => c.id), [held[i]!.id], `${pattern} reuses its own claim`);
  }
  assert.equal(claimNow(h, atlas.caller, { patterns: ['src/a/'] }).claims[0]!.id, held[0]!.id, 'src/a/ is src/a/**');
  const near = claimNow(h, atlas.caller, { patterns: ['src/a/*.ts', '**/*.tsx'] }).claims;
  assert.ok(near.every((c) => !held.some((k) => k.id === c.id)), 'a pattern at the same node but not the same is a new claim');
  assert.equal(h.core.state.claims.size, kept.length + 2);
});

test('a stale fence is refused (STALE_FENCE) on renew, release and check, and changes nothing', () => {
  const { h, atlas } = twoAgents();
  const old = claimNow(h, atlas.caller, { patterns: ['src/**'], ttlSeconds: 60 }).claims[0]!;
  h.core.run(atlas.caller, (ctx) => release(ctx, atlas.caller, { claimIds: [old.id] }));
  const current = claimNow(h, atlas.caller, { patterns: ['src/**'], ttlSeconds: 60 }).claims[0]!;
  assert.ok(current.fence > old.fence);
  const before = JSON.stringify([...h.core.state.claims.values()]);
  expectRefusedUnchanged(h, atlas.caller, 'STALE_FENCE', (ctx) => renew(ctx, atlas.caller, { fence: old.fence, ttlSeconds: 600 }));
  expectRefusedUnchanged(h, atlas.caller, 'STALE_FENCE', (ctx) => release(ctx, atlas.caller, { claimIds: [current.id], fence: old.fence }));
  expectRefusedUnchanged(h, atlas.caller, 'STALE_FENCE', (ctx) => release(ctx, atlas.caller, { patterns: ['src/**'], fence: old.fence }));
  expectRefusedUnchanged(h, atlas.caller, 'STALE_FENCE', (ctx) => checkPaths(ctx, atlas.caller, SCOPE, ['src/a.ts'], old.fence));
  assert.equal(JSON.stringify([...h.core.state.claims.values()]), before);
  // The current fence is accepted.
  const verdicts = h.core.run(atlas.caller, (ctx) => checkPaths(ctx, atlas.caller, SCOPE, ['src/a.ts'], current.fence));
  assert.equal(verdicts[0]!.allowed, true);
  assert.deepEqual(h.core.run(atlas.caller, (ctx) => release(ctx, atlas.caller, { claimIds: [current.id], fence: current.fence })), [current.id]);
});

test(
  'a fence from one scope is stale even when the agent holds a claim with the same number in another scope',
  () => {
    const { h, atlas } = twoAgents();
    const old = claimNow(h, atlas.caller, { patterns: ['src/**'] }).claims[0]!;
    assert.equal(claimNow(h, atlas.caller, { patterns: ['x/**'], scope: OTHER_SCOPE }).claims[0]!.fence, old.fence);
    h.core.run(atlas.caller, (ctx) => release(ctx, atlas.caller, { claimIds: [old.id] }));
    claimNow(h, atlas.caller, { patterns: ['src/**'] });
    // Fence 1 in SCOPE was released and re-granted as fence 2: fence 1 is stale there.
    expectFleetError(() => h.core.run(atlas.caller, (ctx) => checkPaths(ctx, atlas.caller, SCOPE, ['src/a.ts'], old.fence)), 'STALE_FENCE');
  },
);

test('TTL claims expire after their TTL and are released with reason expired', () => {
  const { h, atlas, boreas } = twoAgents();
  const c = claimNow(h, atlas.caller, { patterns: ['src/**'], ttlSeconds: 30 }).claims[0]!;
  assert.equal(c.expiresAt, iso(h.clock.now() + 30_000));
  h.clock.advance(29_999);
  h.core.sweep();
  assert.ok(h.core.state.claims.has(c.id));
  h.clock.advance(1);
  h.core.sweep();
  assert.equal(h.core.state.claims.has(c.id), false);
  const released = eventsOfType(h.events, 'claim.released');
  assert.equal(released.length, 1);
  assert.equal(released[0]!.reason, 'expired');
  assert.equal(claimNow(h, boreas.caller, { patterns: ['src/a.ts'] }).granted, true);
});

test('a TTL claim lapses on its TTL even though its agent keeps calling', () => {
  const { h, atlas } = twoAgents();
  const c = claimNow(h, atlas.caller, { patterns: ['src/**'], ttlSeconds: 10 }).claims[0]!;
  h.clock.advance(10_000);
  const verdict = h.core.run(atlas.caller, (ctx) => checkPaths(ctx, atlas.caller, SCOPE, ['src/a.ts']))[0]!;
  assert.equal(verdict.allowed, false, 'the lapsed claim is swept before the check sees it');
  assert.equal(h.core.state.claims.has(c.id), false);
});

test('renew extends a TTL claim from now by its TTL (or a new one)', () => {
  const { h, atlas } = twoAgents();
  const c = claimNow(h, atlas.caller, { patterns: ['src/**'], ttlSeconds: 30 }).claims[0]!;
  h.clock.advance(20_000);
  const { result, emitted } = runRecording(h, atlas.caller, (ctx) => renew(ctx, atlas.caller, { claimIds: [c.id] }));
  assert.equal(result[0]!.expiresAt, iso(h.clock.now() + 30_000));
  assert.equal(result[0]!.fence, c.fence, 'renewing keeps the fence');
  assert.equal(eventsOfType(emitted, 'claim.renewed').length, 1);
  h.clock.advance(25_000);
  h.core.sweep();
  assert.ok(h.core.state.claims.has(c.id), 'still live past the original expiry');
  const longer = h.core.run(atlas.caller, (ctx) => renew(ctx, atlas.caller, { ttlSeconds: 200 }));
  assert.equal(longer[0]!.expiresAt, iso(h.clock.now() + 200_000));
  h.clock.advance(199_999);
  h.core.sweep();
  assert.ok(h.core.state.claims.has(c.id), 'the new TTL applies');
  h.clock.advance(1);
  h.core.sweep();
  assert.equal(h.core.state.claims.has(c.id), false);
});

test('renewing another agent’s claim is NOT_HOLDER; an unknown claim is NOT_FOUND', () => {
  const { h, atlas, boreas } = twoAgents();
  const c = claimNow(h, atlas.caller, { patterns: ['src/**'], ttlSeconds: 30 }).claims[0]!;
  expectRefusedUnchanged(h, boreas.caller, 'NOT_HOLDER', (ctx) => renew(ctx, boreas.caller, { claimIds: [c.id] }));
  expectRefusedUnchanged(h, boreas.caller, 'NOT_FOUND', (ctx) => renew(ctx, boreas.caller, { claimIds: ['cl-nope'] }));
});

test('release by pattern releases only the matching claims of the caller, in the given scope', () => {
  const { h, atlas, boreas } = twoAgents();
  const mine = claimNow(h, atlas.caller, { patterns: ['src/**', 'docs/**'] }).claims;
  const elsewhere = claimNow(h, atlas.caller, { patterns: ['src/**'], scope: OTHER_SCOPE }).claims[0]!;
  const theirs = claimNow(h, boreas.caller, { patterns: ['lib/**'] }).claims[0]!;
  const { result, emitted } = runRecording(h, atlas.caller, (ctx) => release(ctx, atlas.caller, { scope: SCOPE, patterns: ['src/'] }));
  assert.deepEqual(result, [mine[0]!.id], 'src/ and src/** name the same territory');
  assert.deepEqual(eventsOfType(emitted, 'claim.released').map((e) => [e.claimId, e.reason, e.by]), [[mine[0]!.id, 'released', 'ATLAS']]);
  assert.ok(h.core.state.claims.has(mine[1]!.id));
  assert.ok(h.core.state.claims.has(elsewhere.id));
  assert.ok(h.core.state.claims.has(theirs.id));
  const none = h.core.run(atlas.caller, (ctx) => release(ctx, atlas.caller, { scope: SCOPE, patterns: ['lib/**'] }));
  assert.deepEqual(none, [], 'a pattern held by someone else releases nothing of theirs');
});

test('release by id; releasing twice is a harmless retry', () => {
  const { h, atlas } = twoAgents();
  const c = claimNow(h, atlas.caller, { patterns: ['src/**'] }).claims[0]!;
  assert.deepEqual(h.core.run(atlas.caller, (ctx) => release(ctx, atlas.caller, { claimIds: [c.id] })), [c.id]);
  const { result, emitted } = runRecording(h, atlas.caller, (ctx) => release(ctx, atlas.caller, { claimIds: [c.id] }));
  assert.deepEqual(result, []);
  assert.deepEqual(emitted, []);
});

test('releasing someone else’s claim is NOT_HOLDER and releases nothing, not even the caller’s own ids in the same call', () => {
  const { h, atlas, boreas } = twoAgents();
  const mine = claimNow(h, atlas.caller, { patterns: ['src/**'] }).claims[0]!;
  const theirs = claimNow(h, boreas.caller, { patterns: ['lib/**'] }).claims[0]!;
  expectRefusedUnchanged(h, atlas.caller, 'NOT_HOLDER', (ctx) => release(ctx, atlas.caller, { claimIds: [mine.id, theirs.id] }));
  assert.ok(h.core.state.claims.has(mine.id));
  assert.ok(h.core.state.claims.has(theirs.id));
});

test('transfer re-grants to the recipient with new fences, atomically (released "transferred" + granted)', () => {
  const { h, atlas, boreas } = twoAgents();
  const cs = claimNow(h, atlas.caller, { patterns: ['src/**', 'docs/**'], ttlSeconds: 60, reason: 'handoff' }).claims;
  const { result, emitted } = runRecording(h, atlas.caller, (ctx) => transfer(ctx, atlas.caller, cs.map((c) => c.id), 'BOREAS'));
  assert.deepEqual(emitted.map((e) => e.type), ['claim.released', 'claim.granted', 'claim.released', 'claim.granted']);
  const released = eventsOfType(emitted, 'claim.released');
  assert.ok(released.every((e) => e.reason === 'transferred'));
  const granted = eventsOfType(emitted, 'claim.granted');
  assert.deepEqual(granted.map((e) => e.transferredFrom), cs.map((c) => c.id));
  assert.ok(granted.every((e) => e.agentId === boreas.agentId && e.reason === 'handoff'));
  assert.deepEqual(result.map((c) => c.pattern), ['src/**', 'docs/**']);
  const maxOld = Math.max(...cs.map((c) => c.fence));
  assert.ok(result.every((c) => c.fence > maxOld), 'new grants carry new, higher fences');
  for (const c of cs) assert.equal(h.core.state.claims.has(c.id), false);
  for (const c of result) assert.equal(h.core.state.claims.get(c.id)!.agentId, boreas.agentId);
  // The old fence is now stale for the sender.
  expectFleetError(() => h.core.run(atlas.caller, (ctx) => checkPaths(ctx, atlas.caller, SCOPE, ['src/a'], cs[0]!.fence)), 'STALE_FENCE');
});

test('transfer refuses a recipient that is not live, and changes nothing', () => {
  const { h, atlas, boreas } = twoAgents();
  const c = claimNow(h, atlas.caller, { patterns: ['src/**'] }).claims[0]!;
  h.core.run(boreas.caller, (ctx) => leave(ctx, boreas.caller));
  expectRefusedUnchanged(h, atlas.caller, 'NOT_FOUND', (ctx) => transfer(ctx, atlas.caller, [c.id], 'BOREAS'));
  expectRefusedUnchanged(h, atlas.caller, 'NOT_FOUND', (ctx) => transfer(ctx, atlas.caller, [c.id], 'NOBODY'));
  assert.ok(h.core.state.claims.has(c.id));
});

test('an agent cannot transfer another agent’s claim (NOT_HOLDER); the operator can', () => {
  const { h, atlas, boreas } = twoAgents();
  const cyrus = joinAgent(h, 'CYRUS');
  const c = claimNow(h, atlas.caller, { patterns: ['src/**'] }).claims[0]!;
  expectRefusedUnchanged(h, boreas.caller, 'NOT_HOLDER', (ctx) => transfer(ctx, boreas.caller, [c.id], 'BOREAS'));
  const moved = h.core.run(OPERATOR, (ctx) => transfer(ctx, OPERATOR, [c.id], 'CYRUS'));
  assert.equal(h.core.state.claims.get(moved[0]!.id)!.agentId, cyrus.agentId);
  assert.equal(eventsOfType(h.events, 'claim.released').at(-1)!.by, 'dana');
});

test('a transfer with one unknown claim id changes nothing', () => {
  const { h, atlas } = twoAgents();
  const c = claimNow(h, atlas.caller, { patterns: ['src/**'] }).claims[0]!;
  expectRefusedUnchanged(h, atlas.caller, 'NOT_FOUND', (ctx) => transfer(ctx, atlas.caller, [c.id, 'cl-missing'], 'BOREAS'));
  assert.equal(h.core.state.claims.get(c.id)!.agentId, atlas.agentId);
});

test(
  'transfer never creates overlapping claims of two agents unless both are shared (invariant 1)',
  () => {
    const { h, atlas } = twoAgents();
    claimNow(h, atlas.caller, { patterns: ['src/**'], mode: 'shared' });
    const narrow = claimNow(h, atlas.caller, { patterns: ['src/core/**'] }).claims[0]!;
    try {
      h.core.run(atlas.caller, (ctx) => transfer(ctx, atlas.caller, [narrow.id], 'BOREAS'));
    } catch {
      // Refusing the transfer is an acceptable answer too.
    }
    const live = [...h.core.state.claims.values()];
    const holders = new Set(live.filter((c) => c.pattern.startsWith('src/')).map((c) => c.agentId));
    const anyExclusive = live.some((c) => c.mode === 'exclusive');
    assert.ok(!(holders.size > 1 && anyExclusive), `overlapping claims of two agents: ${JSON.stringify(live.map((c) => [c.pattern, c.mode, c.agentId]))}`);
  },
);

test('an agent’s expiry releases its TTL claims too, whatever their own deadline', () => {
  const { h, atlas } = twoAgents();
  const c = claimNow(h, atlas.caller, { patterns: ['src/**'], ttlSeconds: 3600 }).claims[0]!;
  h.clock.advance(2 * TTL_MS);
  h.core.sweep();
  assert.equal(h.core.state.claims.has(c.id), false);
  assert.equal(eventsOfType(h.events, 'claim.released').find((e) => e.claimId === c.id)!.reason, 'expired');
});

test('force release records the reason and who did it; unknown ids are skipped', () => {
  const { h, atlas } = twoAgents();
  const c = claimNow(h, atlas.caller, { patterns: ['src/**'] }).claims[0]!;
  const { result, emitted } = runRecording(h, OPERATOR, (ctx) => forceRelease(ctx, OPERATOR, [c.id, 'cl-gone'], 'ATLAS is wedged'));
  assert.deepEqual(result, [c.id]);
  const released = eventsOfType(emitted, 'claim.released');
  assert.equal(released.length, 1);
  assert.equal(released[0]!.reason, 'force_released');
  assert.equal(released[0]!.note, 'ATLAS is wedged');
  assert.equal(released[0]!.by, 'dana');
  assert.equal(h.core.state.claims.size, 0);
});
