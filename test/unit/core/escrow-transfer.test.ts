import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forceRelease, transfer } from '../../../server/core/territory.js';
import { OPERATOR, claimNow, expectRefusedUnchanged, joinAgent } from '../../support/core-harness.js';
import { handoff, orchestrationFleet, respond } from '../../support/orchestration-harness.js';

/** ATLAS hands src/** to BOREAS; CYGNUS stands by as the third agent a transfer would wrongly feed. */
function pendingHandoff() {
  const f = orchestrationFleet();
  const cygnus = joinAgent(f.h, 'CYGNUS', { role: 'builder' });
  const [held] = claimNow(f.h, f.atlas.caller, { patterns: ['src/**'] }).claims;
  const sent = handoff(f.h, f.atlas, { to: { callsign: 'BOREAS' }, claims: [held!.id] });
  return { ...f, cygnus, claimId: held!.id, handoffId: sent.id };
}

test('a claim in escrow cannot be transferred, by its holder or the operator: the refusal names the pending handoff and changes nothing', () => {
  const { h, atlas, claimId, handoffId } = pendingHandoff();
  for (const caller of [atlas.caller, OPERATOR]) {
    const error = expectRefusedUnchanged(h, caller, 'INVALID_STATE', (ctx) => transfer(ctx, caller, [claimId], 'CYGNUS'));
    assert.match(error.message, new RegExp(`pending handoff ${handoffId}`));
    assert.match(error.message, /force-release/);
  }
  assert.equal(h.core.state.claims.get(claimId)?.agentId, atlas.agentId);
  assert.equal(h.core.state.claims.get(claimId)?.escrow, handoffId);
});

test('after a refused transfer the recipient still accepts the escrowed territory', () => {
  const { h, boreas, cygnus, claimId, handoffId } = pendingHandoff();
  expectRefusedUnchanged(h, OPERATOR, 'INVALID_STATE', (ctx) => transfer(ctx, OPERATOR, [claimId], 'CYGNUS'));
  const accepted = respond(h, boreas, handoffId, true);
  assert.deepEqual(accepted.claims.map((c) => c.pattern), ['src/**']);
  assert.equal(h.core.state.claims.get(accepted.claims[0]!.id)?.agentId, boreas.agentId);
  assert.equal(claimNow(h, cygnus.caller, { patterns: ['src/a.ts'] }).granted, false);
});

test('force release still ends a claim in escrow (the operator\'s way out)', () => {
  const { h, claimId } = pendingHandoff();
  const released = h.core.run(OPERATOR, (ctx) => forceRelease(ctx, OPERATOR, [claimId], 'stuck handoff'));
  assert.deepEqual(released, [claimId]);
  assert.equal(h.core.state.claims.has(claimId), false);
});
