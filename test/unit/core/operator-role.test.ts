import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isOperator } from '../../../server/core/authority.js';
import { join } from '../../../server/core/roster.js';
import { expectRefusedUnchanged, makeHarness } from '../../support/core-harness.js';

test('role operator is joined only with the operator credential', () => {
  const h = makeHarness();
  const error = expectRefusedUnchanged(h, { kind: 'unjoined' }, 'FORBIDDEN', (ctx) => join(ctx, { callsign: 'DANA', runtime: 'claude-code', role: 'operator' }, 'plane'));
  assert.match(error.message, /operator credential/);
  const dana = h.core.run(undefined, (ctx) => join(ctx, { callsign: 'DANA', runtime: 'vscode', role: 'operator' }, 'operator'));
  assert.equal(isOperator(h.core.state, { kind: 'agent', agentId: dana.agentId }), true);
});

test("an operator agent's session token does not re-attach it over the plane token, asked as operator or not", () => {
  const h = makeHarness();
  const dana = h.core.run(undefined, (ctx) => join(ctx, { callsign: 'DANA', runtime: 'vscode', role: 'operator' }, 'operator'));
  for (const role of [undefined, 'worker', 'operator'] as const) {
    expectRefusedUnchanged(h, { kind: 'unjoined' }, 'FORBIDDEN', (ctx) =>
      join(ctx, { callsign: 'DANA', runtime: 'claude-code', sessionToken: dana.sessionToken, ...(role && { role }) }, 'plane'),
    );
  }
  const again = h.core.run(undefined, (ctx) => join(ctx, { callsign: 'DANA', runtime: 'vscode', sessionToken: dana.sessionToken }, 'operator'));
  assert.equal(again.agentId, dana.agentId);
});

test('an unjoined caller is not the operator', () => {
  assert.equal(isOperator(makeHarness().core.state, { kind: 'unjoined' }), false);
});
