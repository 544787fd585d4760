import assert from 'node:assert/strict';
import { test } from 'node:test';
import { claim } from '../../../server/core/claim.js';
import { release } from '../../../server/core/territory.js';
import { OTHER_SCOPE, SCOPE, claimNow, expectRefusedUnchanged, joinAgent, makeHarness } from '../../support/core-harness.js';

function atlasWithGrant() {
  const h = makeHarness();
  const atlas = joinAgent(h, 'ATLAS');
  const first = claimNow(h, atlas.caller, { patterns: ['src/**', 'docs/**'], requestId: 'req-1' });
  return { h, atlas, first };
}

test('a request id reused for other patterns is refused with INVALID_PARAMS, never answered with the first grant', () => {
  const { h, atlas } = atlasWithGrant();
  for (const patterns of [['lib/**'], ['src/**'], ['src/**', 'docs/**', 'lib/**']]) {
    const error = expectRefusedUnchanged(h, atlas.caller, 'INVALID_PARAMS', (ctx) => claim(ctx, atlas.caller, { scope: SCOPE, patterns, requestId: 'req-1' }, h.core.queue));
    assert.match(error.message, /requestId req-1 was used for other patterns \(src\/\*\*, docs\/\*\*\): use a new requestId/);
  }
  assert.equal(h.core.state.claims.size, 2);
});

test('a request id reused for another mode or another repository is refused', () => {
  const { h, atlas } = atlasWithGrant();
  const shared = expectRefusedUnchanged(h, atlas.caller, 'INVALID_PARAMS', (ctx) =>
    claim(ctx, atlas.caller, { scope: SCOPE, patterns: ['src/**', 'docs/**'], mode: 'shared', requestId: 'req-1' }, h.core.queue),
  );
  assert.match(shared.message, /requestId req-1 was used for exclusive claims/);
  const elsewhere = expectRefusedUnchanged(h, atlas.caller, 'INVALID_PARAMS', (ctx) =>
    claim(ctx, atlas.caller, { scope: OTHER_SCOPE, patterns: ['src/**', 'docs/**'], requestId: 'req-1' }, h.core.queue),
  );
  assert.match(elsewhere.message, /requestId req-1 was used for another repository/);
});

test('the same patterns in another order are the same request: the retry replays the grant', () => {
  const { h, atlas, first } = atlasWithGrant();
  assert.deepEqual(claimNow(h, atlas.caller, { patterns: ['docs/**', 'src/**'], requestId: 'req-1' }).claims, first.claims);
});

test('once its grant has ended, a request id granted afresh replays only the new grant', () => {
  const { h, atlas, first } = atlasWithGrant();
  h.core.run(atlas.caller, (ctx) => release(ctx, atlas.caller, { claimIds: first.claims.map((c) => c.id) }));
  const again = claimNow(h, atlas.caller, { patterns: ['src/**', 'docs/**'], requestId: 'req-1' });
  assert.equal(again.granted, true);
  const retry = claimNow(h, atlas.caller, { patterns: ['src/**', 'docs/**'], requestId: 'req-1' });
  assert.deepEqual(retry.claims, again.claims);
  for (const c of retry.claims) assert.ok(h.core.state.claims.has(c.id), `claim ${c.id} is replayed but no longer live`);
});
