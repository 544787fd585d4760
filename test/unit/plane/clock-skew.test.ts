// Clock skew between planes changes the store's health only when a plane crosses the bound: the
// plane's fleet_store_health notice goes out then, not on every message while the skew lasts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClockSkew } from '../../../server/plane/clock-skew.js';

test('observe says when a plane went beyond the bound or came back, and only then', () => {
  const logged: string[] = [];
  const skew = new ClockSkew('me', 2_000, (message) => logged.push(message));
  assert.equal(skew.observe('me', 1_000, 1_000), false, 'no other plane yet');
  assert.equal(skew.observe('far', 10_000, 1_000), true, '9 s ahead: a problem appears');
  assert.equal(skew.problems().length, 1);
  assert.equal(skew.observe('far', 10_500, 1_000), false, 'still beyond the bound: no news, even as the figure moves');
  assert.equal(skew.observe('near', 2_000, 1_000), false, 'within the bound');
  assert.equal(skew.observe('far', 1_500, 1_000), true, 'back within the bound: the problem is gone');
  assert.deepEqual(skew.problems(), []);
  assert.equal(logged.length, 1, 'logged once per episode');
});
