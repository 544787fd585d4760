// Clock skew between planes, from round trips closed by the peers' clock echoes: reported once a
// plane's interval lies wholly beyond the bound, and the store's health changes only then (the
// plane's fleet_store_health notice goes out once, not on every message while the skew lasts).
// Messages all delayed (a stalled store) widen the interval: they are never taken for skew.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClockEcho } from '../../../server/plane/shared-log/clock-echo.js';
import { ClockSkew, MAX_COMPARED_PLANES, type HeardMessage } from '../../../server/plane/shared-log/clock-skew.js';

/** Past the span in which a plane's best estimate stands (server/plane/shared-log/clock-skew.ts). */
const LATER = 5 * 60_000 + 1;

/**
 * A message of `peer` (clock `offsetMs` ahead of mine) answering one of mine sent at `sent`, each
 * way taking `outMs` and `backMs`; what `me` receives, at `sent + outMs + holdMs + backMs`.
 */
function answer(peer: string, offsetMs: number, sent: number, { outMs = 5, holdMs = 100, backMs = 5 } = {}): HeardMessage {
  const echo = new ClockEcho(peer);
  const peerReceived = sent + outMs + offsetMs;
  echo.heard('me', sent, peerReceived);
  const planeClock = peerReceived + holdMs;
  return { plane: peer, planeClock, clockEcho: echo.header(planeClock), receivedAt: planeClock - offsetMs + backMs };
}

test('observe says when a plane went beyond the bound or came back, and only then', () => {
  const logged: string[] = [];
  const skew = new ClockSkew('me', 2_000, (message) => logged.push(message));
  assert.equal(skew.observe(answer('far', 9_000, 1_000)), true, '9 s ahead: a problem appears');
  assert.equal(skew.problems().length, 1);
  assert.match(skew.problems()[0]!, /plane far's clock is 9\.0 s ahead of this one's \(± 0\.0 s; bound 2 s\)/);
  assert.equal(skew.observe(answer('far', 9_500, 2_000)), false, 'still beyond the bound: no news, even as the figure moves');
  assert.equal(skew.observe(answer('near', 1_000, 2_000)), false, 'within the bound');
  assert.equal(skew.observe(answer('far', 500, 2_000 + LATER)), true, 'its clock set right: the problem is gone once the old estimates age out');
  assert.deepEqual(skew.problems(), []);
  assert.equal(logged.length, 1, 'logged once per episode');
});

test('a plane sharing my clock whose every message is late is no skew; a skewed one is, with its interval', () => {
  const logged: string[] = [];
  const skew = new ClockSkew('me', 1_000, (message) => logged.push(message));
  for (let sent = 1_000; sent < 60_000; sent += 5_000) {
    assert.equal(skew.observe(answer('same', 0, sent, { outMs: 3_300, backMs: 0 })), false, 'every message of mine reached it 3.3 s late');
    skew.observe(answer('slow', 0, sent, { outMs: 0, backMs: 3_300 })); // every one of its reached me late
  }
  assert.deepEqual([skew.problems(), logged], [[], []]);
  assert.equal(skew.observe(answer('skewed', 5_000, 1_000, { outMs: 2_000, backMs: 0 })), true, 'a clock 5 s ahead is seen through the same delay');
  assert.match(skew.problems()[0]!, /plane skewed's clock is 6\.0 s ahead of this one's \(± 1\.0 s; bound 1 s\)/);
  skew.observe(answer('skewed', 5_000, 2_000, { outMs: 20, backMs: 20 }));
  assert.match(skew.problems()[0]!, /plane skewed's clock is 5\.0 s ahead of this one's \(± 0\.0 s/, 'the shortest round trip of the window stands');
  skew.observe(answer('skewed', 5_000, 3_000, { outMs: 0, backMs: 3_000 }));
  assert.match(skew.problems()[0]!, /5\.0 s ahead of this one's \(± 0\.0 s/, 'a later, longer one does not replace it');
});

test("a message that echoes nothing of mine (an older plane's, or one that has not heard me) is taken and not compared", () => {
  const skew = new ClockSkew('me', 1_000, () => undefined);
  assert.equal(skew.observe({ plane: 'old', planeClock: 90_000, clockEcho: undefined, receivedAt: 1_000 }), false);
  const other = new ClockEcho('new');
  other.heard('someone-else', 500, 600);
  assert.equal(skew.observe({ plane: 'new', planeClock: 90_000, clockEcho: other.header(700), receivedAt: 1_000 }), false);
  assert.deepEqual(skew.problems(), []);
});

test('an unreadable echo is logged once per plane, and the plane is not compared', () => {
  const logged: string[] = [];
  const skew = new ClockSkew('me', 1_000, (message) => logged.push(message));
  for (const clockEcho of ['{oops', '[["me", "soon", 3]]', '[["me", 1, 2]]'.repeat(1_000)]) {
    assert.equal(skew.observe({ plane: 'odd', planeClock: 90_000, clockEcho, receivedAt: 1_000 }), false);
  }
  assert.deepEqual(skew.problems(), []);
  assert.equal(logged.length, 1);
  assert.match(logged[0]!, /plane odd's clock echo is unreadable \(not JSON .*\); its clock is not compared/);
});

test('an echo no real exchange gives (an answer sent before the question was heard) is no estimate', () => {
  const skew = new ClockSkew('me', 1_000, () => undefined);
  const clockEcho = JSON.stringify([['me', 1_000, 50_000]]);
  assert.equal(skew.observe({ plane: 'liar', planeClock: 40_000, clockEcho, receivedAt: 2_000 }), false);
  assert.deepEqual(skew.problems(), []);
});

test('however many planes the stream names, a bounded number is compared and logged: the most recently heard', () => {
  const logged: string[] = [];
  const skew = new ClockSkew('me', 1_000, (message) => logged.push(message));
  for (let i = 0; i < MAX_COMPARED_PLANES * 2; i++) {
    skew.observe(answer(`far${i}`, 9_000, 1_000 + i));
    skew.observe({ plane: `odd${i}`, planeClock: 90_000, clockEcho: '{', receivedAt: 1_000 });
  }
  const problems = skew.problems();
  assert.equal(problems.length, MAX_COMPARED_PLANES);
  assert.match(problems.at(-1)!, new RegExp(`plane far${MAX_COMPARED_PLANES * 2 - 1}'s clock`));
  assert.equal(logged.filter((line) => line.includes('unreadable')).length, MAX_COMPARED_PLANES);
});
