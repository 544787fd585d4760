import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Caller } from '../../../server/core/context.js';
import { respondHandoff, sendHandoff, type HandoffInput } from '../../../server/core/handoffs.js';
import { join } from '../../../server/core/roster.js';
import { describeViolations, GrantChecker } from '../../support/grant-checker.js';
import { OPERATOR, TTL_MS, claimNow, eventsOfType, expectRefusedUnchanged, joinAgent, makeHarness, runRecording, type Harness } from '../../support/core-harness.js';
import { add, complete, handoff, mayWrite, orchestrationFleet, pull, respond, withPaths } from '../../support/orchestration-harness.js';

/** The independent territory referee finds nothing wrong in the log. */
function assertCleanLog(h: Harness): void {
  const checker = new GrantChecker({ agentTtlMs: TTL_MS }).applyAll(h.events);
  assert.equal(checker.violationCount, 0, describeViolations(checker));
}

/** Moves time past twice the TTL since now, keeping `alive` live: every other silent agent expires. */
function silenceUntilExpired(h: Harness, alive: Caller): void {
  h.clock.advance(TTL_MS);
  h.core.run(alive, () => undefined);
  h.clock.advance(TTL_MS + 1);
  h.core.run(alive, () => undefined);
}

const envelope = (input: Partial<HandoffInput> & Pick<HandoffInput, 'to'>): HandoffInput =>
  ({ summary: 's', filesTouched: [], claims: [], nextSteps: [], openQuestions: [], artifacts: [], refs: [], ...input }) as HandoffInput;

function escrowSetup() {
  const f = orchestrationFleet();
  const cygnus = joinAgent(f.h, 'CYGNUS', { role: 'builder' });
  const held = claimNow(f.h, f.atlas.caller, { patterns: ['src/**', 'docs/api.md'] }).claims;
  return { ...f, cygnus, held };
}

test('sending a handoff records the envelope and puts the listed claims in escrow, and only those', () => {
  const { h, atlas, held } = escrowSetup();
  const { result, emitted } = runRecording(h, atlas.caller, (ctx) =>
    sendHandoff(ctx, atlas.caller, envelope({ to: { callsign: 'BOREAS' }, summary: 'parser half done', claims: [held[0]!.id], nextSteps: ['finish the lexer'], openQuestions: ['utf-16?'], refs: ['msg-0'] })),
  );
  assert.deepEqual(emitted.map((e) => e.type), ['handoff.sent', 'claim.escrowed']);
  assert.equal(result.status, 'pending');
  assert.equal(result.envelope.from, 'ATLAS');
  assert.deepEqual(result.envelope.nextSteps, ['finish the lexer']);
  assert.deepEqual(result.envelope.openQuestions, ['utf-16?']);
  assert.equal(result.expiresAt, h.clock.now() + 30 * 60_000, 'default: 30 minutes to accept');
  assert.equal(h.core.state.claims.get(held[0]!.id)!.escrow, result.id);
  assert.equal(h.core.state.claims.get(held[1]!.id)!.escrow, undefined);
});

test('escrowed territory: others cannot claim it or pull work under it, and the sender cannot write under it', () => {
  const { h, atlas, boreas, cygnus, held } = escrowSetup();
  add(h, { title: 'under escrow', ...withPaths(['src/x.ts']) });
  handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: [held[0]!.id] });
  // Neither a third agent nor the recipient (before accepting) can take it.
  for (const other of [cygnus, boreas]) {
    const out = claimNow(h, other.caller, { patterns: ['src/x.ts'] });
    assert.equal(out.granted, false);
    assert.equal(out.refusedBy, 'conflict');
    assert.equal(out.conflicts[0]!.holder, 'ATLAS');
    assert.equal(pull(h, other).item, null);
  }
  // The fleet check: the sender no longer writes under it; people in the editor neither.
  assert.equal(mayWrite(h, atlas.caller, 'src/x.ts'), false);
  assert.equal(mayWrite(h, boreas.caller, 'src/x.ts'), false);
  assert.equal(mayWrite(h, OPERATOR, 'src/x.ts'), false);
  // The claim the sender kept is untouched.
  assert.equal(mayWrite(h, atlas.caller, 'docs/api.md'), true);
  assertCleanLog(h);
});

test('accepting moves the escrowed claims to the recipient atomically, with new (higher) fences', () => {
  const { h, atlas, boreas, held } = escrowSetup();
  const ho = handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: [held[0]!.id] });
  const { result, emitted } = runRecording(h, boreas.caller, (ctx) => respondHandoff(ctx, boreas.caller, { handoffId: ho.id, accept: true }));
  assert.deepEqual(emitted.map((e) => e.type), ['claim.unescrowed', 'claim.released', 'claim.granted', 'handoff.resolved']);
  const released = eventsOfType(emitted, 'claim.released')[0]!;
  assert.equal(released.reason, 'transferred');
  const granted = eventsOfType(emitted, 'claim.granted')[0]!;
  assert.equal(granted.agentId, boreas.agentId);
  assert.equal(granted.pattern, 'src/**');
  assert.equal(granted.transferredFrom, held[0]!.id);
  assert.ok(granted.fence > Math.max(...held.map((c) => c.fence)), 'a new fence, higher than any before');
  assert.deepEqual(result.claims, [{ id: granted.claimId, pattern: 'src/**', fence: granted.fence, expiresAt: result.claims[0]!.expiresAt }]);
  assert.equal(result.handoff.status, 'accepted');
  assert.equal(result.handoff.acceptedBy, 'BOREAS');
  assert.equal(mayWrite(h, boreas.caller, 'src/x.ts'), true);
  assert.equal(mayWrite(h, atlas.caller, 'src/x.ts'), false);
  assert.equal(h.core.state.claims.has(held[0]!.id), false, 'the old claim (and its fence) is gone');
  assertCleanLog(h);
});

test('accepting a handoff twice is INVALID_STATE, and so is declining an accepted one', () => {
  const { h, atlas, boreas, held } = escrowSetup();
  const ho = handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: [held[0]!.id] });
  respond(h, boreas, ho.id, true);
  const twice = expectRefusedUnchanged(h, boreas.caller, 'INVALID_STATE', (ctx) => respondHandoff(ctx, boreas.caller, { handoffId: ho.id, accept: true }));
  assert.match(twice.message, /already accepted by BOREAS/);
  expectRefusedUnchanged(h, boreas.caller, 'INVALID_STATE', (ctx) => respondHandoff(ctx, boreas.caller, { handoffId: ho.id, accept: false }));
});

test('a handoff to a role is accepted by the first agent with that role; others are FORBIDDEN', () => {
  const { h, atlas, boreas, cygnus, vera, held } = escrowSetup();
  const ho = handoff(h, atlas, { to: { role: 'builder' }, claims: [held[0]!.id] });
  expectRefusedUnchanged(h, vera.caller, 'FORBIDDEN', (ctx) => respondHandoff(ctx, vera.caller, { handoffId: ho.id, accept: true }));
  respond(h, cygnus, ho.id, true);
  expectRefusedUnchanged(h, boreas.caller, 'INVALID_STATE', (ctx) => respondHandoff(ctx, boreas.caller, { handoffId: ho.id, accept: true }));
  assert.equal(mayWrite(h, cygnus.caller, 'src/x.ts'), true);
});

test('only the addressee may respond to a handoff', () => {
  const { h, atlas, cygnus, held } = escrowSetup();
  const ho = handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: [held[0]!.id] });
  expectRefusedUnchanged(h, cygnus.caller, 'FORBIDDEN', (ctx) => respondHandoff(ctx, cygnus.caller, { handoffId: ho.id, accept: true }));
  expectRefusedUnchanged(h, cygnus.caller, 'NOT_FOUND', (ctx) => respondHandoff(ctx, cygnus.caller, { handoffId: 'ho-missing', accept: true }));
});

test('declining returns the claims to the sender as they were: same ids, same fences, writable again', () => {
  const { h, atlas, boreas, held } = escrowSetup();
  const ho = handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: [held[0]!.id] });
  const { emitted } = runRecording(h, boreas.caller, (ctx) => respondHandoff(ctx, boreas.caller, { handoffId: ho.id, accept: false, reason: 'busy' }));
  assert.deepEqual(emitted.map((e) => e.type), ['claim.unescrowed', 'handoff.resolved']);
  const claim = h.core.state.claims.get(held[0]!.id)!;
  assert.equal(claim.agentId, atlas.agentId);
  assert.equal(claim.fence, held[0]!.fence);
  assert.equal(claim.escrow, undefined);
  assert.equal(h.core.state.handoffs.get(ho.id)!.status, 'declined');
  assert.equal(h.core.state.handoffs.get(ho.id)!.reason, 'busy');
  assert.equal(mayWrite(h, atlas.caller, 'src/x.ts'), true);
  expectRefusedUnchanged(h, boreas.caller, 'INVALID_STATE', (ctx) => respondHandoff(ctx, boreas.caller, { handoffId: ho.id, accept: true }));
  assertCleanLog(h);
});

test('a handoff nobody accepts expires at its deadline and returns its claims to the sender', () => {
  const { h, atlas, boreas, held } = escrowSetup();
  const ho = handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: [held[0]!.id], ttlSeconds: 60 });
  h.clock.advance(59_999);
  h.core.run(atlas.caller, () => undefined); // keeps ATLAS live; nothing due yet
  assert.equal(h.core.state.handoffs.get(ho.id)!.status, 'pending');
  h.clock.advance(1);
  const { emitted } = runRecording(h, undefined, () => undefined);
  assert.deepEqual(emitted.map((e) => e.type), ['claim.unescrowed', 'handoff.resolved']);
  const resolved = eventsOfType(emitted, 'handoff.resolved')[0]!;
  assert.equal(resolved.status, 'expired');
  assert.equal(resolved.by, 'plane');
  assert.equal(h.core.state.claims.get(held[0]!.id)!.escrow, undefined);
  assert.equal(mayWrite(h, atlas.caller, 'src/x.ts'), true);
  expectRefusedUnchanged(h, boreas.caller, 'INVALID_STATE', (ctx) => respondHandoff(ctx, boreas.caller, { handoffId: ho.id, accept: true }));
  assertCleanLog(h);
});

test('a sender that expires keeps its escrowed claims alive until the handoff settles; the recipient still gets them', () => {
  const { h, atlas, boreas, held } = escrowSetup();
  const ho = handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: [held[0]!.id], ttlSeconds: 3 * 3600 });
  silenceUntilExpired(h, boreas.caller); // BOREAS stays live; ATLAS goes silent and expires
  assert.equal(h.core.state.agents.get(atlas.agentId)!.gone, 'expired');
  const released = eventsOfType(h.events, 'claim.released').map((e) => [e.claimId, e.reason]);
  assert.deepEqual(released, [[held[1]!.id, 'expired']], 'the claim it kept expired; the escrowed one did not');
  assert.equal(h.core.state.claims.get(held[0]!.id)!.escrow, ho.id);
  const out = respond(h, boreas, ho.id, true);
  assert.equal(out.claims.length, 1);
  assert.equal(mayWrite(h, boreas.caller, 'src/x.ts'), true);
  assertCleanLog(h);
});

test('a sender that expired: a declined or expired handoff releases the escrowed claims as expired, saying why', () => {
  for (const ending of ['declined', 'expired'] as const) {
    const { h, atlas, boreas, held } = escrowSetup();
    const ho = handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: [held[0]!.id], ttlSeconds: 2 * TTL_MS / 1000 + 60 });
    silenceUntilExpired(h, boreas.caller);
    if (ending === 'declined') respond(h, boreas, ho.id, false);
    else {
      h.clock.advance(60_000);
      h.core.run(boreas.caller, () => undefined);
    }
    assert.equal(h.core.state.handoffs.get(ho.id)!.status, ending);
    const release = eventsOfType(h.events, 'claim.released').find((e) => e.claimId === held[0]!.id)!;
    assert.equal(release.reason, 'expired');
    assert.match(release.note ?? '', new RegExp(`${ending} and its sender is gone`));
    assert.equal(h.core.state.claims.size, 0);
    assertCleanLog(h);
  }
});

test('a handoff to its own callsign (a new session after context exhaustion) keeps the claims and their fences: no gap', () => {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS', { role: 'builder' });
  const boreas = joinAgent(h, 'BOREAS', { role: 'builder' });
  const id = add(h, { title: 't', ...withPaths(['src/t/**']) }).id;
  const pulled = pull(h, atlas);
  const ho = handoff(h, atlas, { to: { callsign: 'ATLAS' }, claims: pulled.claims.map((c) => c.id), workItem: id, summary: 'context full' });
  // Nobody can take the territory in between.
  assert.equal(claimNow(h, boreas.caller, { patterns: ['src/t/a.ts'] }).granted, false);
  // The new session re-attaches with the session token and accepts.
  const again = h.core.run(undefined, (ctx) => join(ctx, { callsign: 'ATLAS', runtime: 'claude-code', sessionToken: atlas.sessionToken }));
  assert.equal(again.agentId, atlas.agentId);
  const { result, emitted } = runRecording(h, atlas.caller, (ctx) => respondHandoff(ctx, atlas.caller, { handoffId: ho.id, accept: true }));
  assert.deepEqual(emitted.map((e) => e.type).filter((t) => t.startsWith('claim.')), ['claim.unescrowed'], 'no release, no re-grant');
  assert.deepEqual(result.claims, []);
  const claim = h.core.state.claims.get(pulled.claims[0]!.id)!;
  assert.equal(claim.fence, pulled.claims[0]!.fence);
  assert.equal(claim.agentId, atlas.agentId);
  assert.equal(mayWrite(h, atlas.caller, 'src/t/a.ts'), true);
  assert.equal(h.core.state.work.get(id)!.assignee, atlas.agentId);
  assertCleanLog(h);
});

test('a handoff carries its work item to the recipient, who can complete it', () => {
  const { h, atlas, boreas } = orchestrationFleet();
  const id = add(h, { title: 't', ...withPaths(['src/t/**']) }).id;
  const pulled = pull(h, atlas);
  const ho = handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: pulled.claims.map((c) => c.id), workItem: id });
  respond(h, boreas, ho.id, true);
  const item = h.core.state.work.get(id)!;
  assert.equal(item.status, 'in_progress');
  assert.equal(item.assignee, boreas.agentId);
  assert.equal(item.statusReason, 'handed off by ATLAS');
  complete(h, boreas.caller, id);
  assert.equal(h.core.state.work.get(id)!.status, 'review');
  assert.equal(h.core.state.claims.size, 0, "the moved claims kept the item's reason, so completing releases them");
});

test('refusals when sending: unknown recipient, a claim not held, a claim already in escrow, an unknown work item', () => {
  const { h, atlas, boreas, held } = escrowSetup();
  const other = claimNow(h, boreas.caller, { patterns: ['lib/**'] }).claims[0]!;
  expectRefusedUnchanged(h, atlas.caller, 'NOT_FOUND', (ctx) => sendHandoff(ctx, atlas.caller, envelope({ to: { callsign: 'NOBODY' } })));
  expectRefusedUnchanged(h, atlas.caller, 'NOT_HOLDER', (ctx) => sendHandoff(ctx, atlas.caller, envelope({ to: { callsign: 'BOREAS' }, claims: [other.id] })));
  expectRefusedUnchanged(h, atlas.caller, 'NOT_FOUND', (ctx) => sendHandoff(ctx, atlas.caller, envelope({ to: { callsign: 'BOREAS' }, claims: ['cl-missing'] })));
  expectRefusedUnchanged(h, atlas.caller, 'NOT_FOUND', (ctx) => sendHandoff(ctx, atlas.caller, envelope({ to: { callsign: 'BOREAS' }, workItem: 'wk-missing' })));
  handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: [held[0]!.id] });
  expectRefusedUnchanged(h, atlas.caller, 'INVALID_STATE', (ctx) => sendHandoff(ctx, atlas.caller, envelope({ to: { role: 'builder' }, claims: [held[0]!.id] })));
  expectRefusedUnchanged(h, OPERATOR, 'NOT_JOINED', (ctx) => sendHandoff(ctx, OPERATOR, envelope({ to: { callsign: 'BOREAS' } })));
});

test(
  'the sender cannot get back under escrowed territory by claiming it again',
  () => {
    const { h, atlas, held } = escrowSetup();
    handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: [held[0]!.id] });
    const again = claimNow(h, atlas.caller, { patterns: ['src/x.ts'] });
    assert.equal(mayWrite(h, atlas.caller, 'src/x.ts'), false, `the sender writes under escrow (claim granted: ${again.granted})`);
  },
);

test(
  "a sender re-claiming the exact escrowed pattern does not get the escrowed claim handed back as a fresh grant",
  () => {
    const { h, atlas, held } = escrowSetup();
    handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: [held[0]!.id] });
    const again = claimNow(h, atlas.caller, { patterns: ['src/**'] });
    assert.ok(!again.granted || again.claims.every((c) => c.id !== held[0]!.id), 'granted: true with the claim that is in escrow');
  },
);

test(
  'a sender cannot pull work under its own escrowed territory',
  () => {
    const { h, atlas, boreas, held } = escrowSetup();
    const ho = handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: [held[0]!.id] });
    add(h, { title: 'under escrow', ...withPaths(['src/y.ts']) });
    const pulled = pull(h, atlas);
    assert.equal(pulled.item, null, 'the sender pulled an item under escrowed territory');
    respond(h, boreas, ho.id, true);
  },
);

test(
  'a handoff whose sender expired while it was pending still delivers its work item to the recipient',
  () => {
    const h = makeHarness();
    const atlas = joinAgent(h, 'ATLAS', { role: 'builder' });
    const boreas = joinAgent(h, 'BOREAS', { role: 'builder' });
    const id = add(h, { title: 't', ...withPaths(['src/t/**']) }).id;
    const pulled = pull(h, atlas);
    const ho = handoff(h, atlas, { to: { callsign: 'BOREAS' }, claims: pulled.claims.map((c) => c.id), workItem: id, ttlSeconds: 3600 });
    silenceUntilExpired(h, boreas.caller);
    respond(h, boreas, ho.id, true);
    const item = h.core.state.work.get(id)!;
    assert.deepEqual([item.status, item.assignee], ['in_progress', boreas.agentId]);
  },
);
