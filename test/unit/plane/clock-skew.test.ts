// Clock skew between planes changes the store's health only when a plane crosses the bound: the
// plane's fleet_store_health notice goes out then, not on every message while the skew lasts. A
// message stored late (a stalled store) makes its plane look behind; that is not taken for skew.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClockSkew } from '../../../server/plane/shared-log/clock-skew.js';

/** Past the span in which a plane's best reading stands (server/plane/shared-log/clock-skew.ts). */
const LATER = 5 * 60_000 + 1;

test('observe says when a plane went beyond the bound or came back, and only then', () => {
  const logged: string[] = [];
  const skew = new ClockSkew('me', 2_000, (message) => logged.push(message));
  assert.equal(skew.observe('me', 1_000, 1_000), false, 'no other plane yet');
  assert.equal(skew.observe('far', 10_000, 1_000), true, '9 s ahead: a problem appears');
  assert.equal(skew.problems().length, 1);
  assert.equal(skew.observe('far', 10_500, 1_000), false, 'still beyond the bound: no news, even as the figure moves');
  assert.equal(skew.observe('near', 2_000, 1_000), false, 'within the bound');
  assert.equal(skew.observe('far', 1_500 + LATER, 1_000 + LATER), true, 'its clock set right: the problem is gone once the old readings age out');
  assert.deepEqual(skew.problems(), []);
  assert.equal(logged.length, 1, 'logged once per episode');
});

test('a message stored late is not skew: a plane is judged by its least delayed reading', () => {
  const logged: string[] = [];
  const skew = new ClockSkew('me', 2_000, (message) => logged.push(message));
  skew.observe('me', 1_000, 1_000);
  skew.observe('other', 2_000, 2_000);
  assert.equal(skew.observe('other', 3_000, 6_300), false, "the other plane's message stored 3.3 s after it was sent");
  assert.equal(skew.observe('me', 7_000, 10_300), false, 'and one of mine');
  assert.deepEqual([skew.problems(), logged], [[], []]);
  assert.equal(skew.observe('other', 11_000 + 9_000, 11_000), true, 'a clock really 9 s ahead is still seen');
  assert.match(skew.problems()[0]!, /plane other's clock is 9\.0 s ahead of this one's/);
});
