// The clock echo a plane's messages carry: bounded in planes and characters, the most recently
// heard planes first to stay, and read back strictly (a garbled or oversized header is an error
// that says what is wrong, a missing one is simply no echo).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClockEcho, echoedTo, MAX_ECHO_CHARS, MAX_ECHOED_PLANES } from '../../../server/plane/shared-log/clock-echo.js';

test("a plane echoes each peer's last clock reading and when it received it; a peer reads its own back", () => {
  const echo = new ClockEcho('pl_me');
  assert.equal(echo.header(1_000), undefined, 'nobody heard yet: no header');
  echo.heard('pl_me', 10, 20);
  echo.heard('pl_a', 100, 150);
  echo.heard('pl_a', 300, 320);
  echo.heard('pl_a', 200, 330); // delivered again, late (a replaced follower): not its last message
  echo.heard('pl_b', 400, 410);
  const header = echo.header(1_000)!;
  assert.deepEqual(echoedTo('pl_a', header), { sent: 300, peerReceived: 320 });
  assert.deepEqual(echoedTo('pl_b', header), { sent: 400, peerReceived: 410 });
  assert.equal(echoedTo('pl_me', header), undefined, 'its own messages are not echoed');
  assert.equal(echo.header(410 + 5 * 60_000 + 1), undefined, 'peers heard too long ago are not echoed');
});

test('however many planes it hears, the header names the most recently heard few and stays within its bound', () => {
  const echo = new ClockEcho('pl_me');
  const long = (i: number) => `pl_${String(i).padStart(60, '0')}`;
  for (let i = 0; i < MAX_ECHOED_PLANES * 4; i++) echo.heard(long(i), 8_000_000_000_000 + i, 8_000_000_000_000 + i);
  const header = echo.header(8_000_000_000_100)!;
  assert.ok(header.length <= MAX_ECHO_CHARS, `${header.length} characters`);
  assert.equal((JSON.parse(header) as unknown[]).length, MAX_ECHOED_PLANES);
  assert.equal(echoedTo(long(0), header), undefined, 'the earliest heard dropped out');
  assert.ok(echoedTo(long(MAX_ECHOED_PLANES * 4 - 1), header), 'the latest heard is in');
});

test('a garbled, oversized or ill-typed echo is an error naming what is wrong; none at all is no echo', () => {
  assert.equal(echoedTo('pl_me', undefined), undefined);
  assert.match(String(echoedTo('pl_me', '[["pl_me", 1')), /not JSON/);
  assert.match(String(echoedTo('pl_me', 'x'.repeat(MAX_ECHO_CHARS + 1))), /more than the \d+ a clock echo takes/);
  assert.match(String(echoedTo('pl_me', '[["pl_me", "1", 2]]')), /not a list of at most 16 \[plane, sent, received\] entries/);
  assert.match(String(echoedTo('pl_me', '[["pl_me", -1, 2]]')), /not a list/);
  assert.match(String(echoedTo('pl_me', '{"pl_me": [1, 2]}')), /not a list/);
  assert.match(String(echoedTo('pl_me', JSON.stringify(Array.from({ length: MAX_ECHOED_PLANES + 1 }, (_, i) => [`pl_${i}`, 1, 2])))), /not a list/);
});
