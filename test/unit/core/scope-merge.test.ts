// DESIGN §13: an older plane's scopes renamed to portable ids. Where two old scopes become one,
// their claims were never compared: the later of two overlapping ones waits, never a double grant.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toPersisted } from '../../../server/core/state.js';
import { release } from '../../../server/core/territory.js';
import { claimNow, joinAgent, makeHarness, OPERATOR, restoreHarness } from '../../support/core-harness.js';
import { configureBuild } from '../../../server/core/build-gate.js';

const OLD_A = '/home/u/app-a/.git';
const OLD_B = '/home/u/app-b/.git';
const NEW = 'github.com/org/app';

test('merging two old scopes parks the later of two overlapping claims, keeps the rest, and takes the highest fence', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const bolt = joinAgent(h, 'BOLT');
  const cid = joinAgent(h, 'CID');
  claimNow(h, atlas.caller, { scope: OLD_A, patterns: ['src/**'] });
  h.clock.advance(10);
  for (let i = 0; i < 3; i++) {
    claimNow(h, bolt.caller, { scope: OLD_B, patterns: ['tmp'] });
    h.core.run(bolt.caller, (ctx) => release(ctx, bolt.caller, { scope: OLD_B, patterns: ['tmp'] }));
  }
  const later = claimNow(h, bolt.caller, { scope: OLD_B, patterns: ['src/api/**'] }).claims[0]!;
  claimNow(h, bolt.caller, { scope: OLD_B, patterns: ['docs/**'], mode: 'shared' });
  claimNow(h, cid.caller, { scope: OLD_A, patterns: ['docs/**'], mode: 'shared' }); // shared with shared: no conflict
  claimNow(h, atlas.caller, { scope: OLD_B, patterns: ['src/api/x.ts'] }); // ATLAS's own in B and A overlap: its own
  const highest = Math.max(h.core.state.claimFences.get(OLD_A)!, h.core.state.claimFences.get(OLD_B)!);
  h.core.run(OPERATOR, (ctx) => configureBuild(ctx, OPERATOR, { scope: OLD_A, command: 'npm test', worktree: '/home/u/app-a' }));

  h.core.migrateScopes([{ from: OLD_A, to: NEW }, { from: OLD_B, to: NEW }]);

  const state = h.core.state;
  assert.deepEqual([...state.parkedClaims.keys()], [later.id], 'only BOLT\'s later src/api/** waits');
  assert.ok(!state.claims.has(later.id));
  assert.deepEqual(new Set([...state.claims.values()].map((c) => c.scope)), new Set([NEW]));
  assert.deepEqual([...state.claimFences.entries()], [[NEW, highest]]);
  assert.equal(state.buildConfigs.get(NEW)?.scope, NEW);
  assert.equal(h.core.queue.size, 1, 'the parked claim waits in the claim queue');

  // A replay of the log reaches the same state, the parked claim included (lastSeen, moved by
  // calls that are not logged, aside).
  const comparable = (s: typeof state) => ({ ...toPersisted(s), agents: toPersisted(s).agents.map((a) => ({ ...a, lastSeen: 0 })) });
  const replayed = restoreHarness({ snapshot: null, tail: h.events });
  assert.deepEqual(comparable(replayed.core.state), comparable(state));

  // ATLAS lets go: BOLT's parked claim is granted in the same step, with a fence above every old one.
  h.core.run(atlas.caller, (ctx) => release(ctx, atlas.caller, { scope: NEW, patterns: ['src/**'] }));
  const granted = [...state.claims.values()].find((c) => c.agentId === bolt.agentId && c.pattern === 'src/api/**');
  assert.ok(granted, 'BOLT holds src/api/** now');
  assert.ok(granted.fence > highest);
  assert.equal(state.parkedClaims.size, 0);
  assert.equal(h.events.at(-1)?.type, 'claim.unparked');
});

test('a parked claim whose agent is gone leaves the queue; one left at shutdown stays parked for the next start', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const bolt = joinAgent(h, 'BOLT');
  claimNow(h, atlas.caller, { scope: OLD_A, patterns: ['a/**'] });
  h.clock.advance(10);
  claimNow(h, bolt.caller, { scope: OLD_B, patterns: ['a/b'] });
  h.core.migrateScopes([{ from: OLD_A, to: NEW }, { from: OLD_B, to: NEW }]);
  assert.equal(h.core.state.parkedClaims.size, 1);

  h.core.queue.abandonAll(); // what the plane does when it shuts down
  assert.equal(h.core.state.parkedClaims.size, 1, 'kept for the next start');
  const next = restoreHarness({ snapshot: toPersisted(h.core.state), tail: [] });
  next.core.announceStart(1, 'test');
  assert.equal(next.core.queue.size, 1, 'queued again at start');

  next.core.run(bolt.caller, (ctx) => ctx.emit({ type: 'agent.left', agentId: bolt.agentId }));
  assert.equal(next.core.state.parkedClaims.size, 0);
  assert.deepEqual(next.events.filter((e) => e.type === 'claim.unparked').map((e) => e.type === 'claim.unparked' && e.granted), [false]);
});
