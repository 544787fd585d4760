// A peer's clock offset from one round trip, NTP's way: exact when the two messages took as long
// each, and otherwise still within the interval the round trip gives — however the delay was split
// between them, so a stall never moves the truth outside it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { beyondBound, offsetOf, type RoundTrip } from '../../../server/core/clock-offset.js';

/** The four timestamps of an exchange with a peer `offsetMs` ahead, whose messages take `outMs` and `backMs`. */
function exchange(offsetMs: number, outMs: number, holdMs: number, backMs: number): RoundTrip {
  const sent = 1_000_000;
  const peerReceived = sent + outMs + offsetMs;
  const peerSent = peerReceived + holdMs;
  return { sent, peerReceived, peerSent, received: peerSent - offsetMs + backMs };
}

test('equal delays each way: the offset exactly, give or take half the time on the way', () => {
  assert.deepEqual(offsetOf(exchange(5_000, 300, 60_000, 300)), { offsetMs: 5_000, errorMs: 301 });
  assert.deepEqual(offsetOf(exchange(-5_000, 300, 0, 300)), { offsetMs: -5_000, errorMs: 301 });
});

test('every message delayed by a stall, one way or both: the interval still holds the true offset', () => {
  for (const offsetMs of [0, 5_000, -7_000]) {
    for (const [outMs, backMs] of [[3_300, 0], [0, 3_300], [2_000, 3_300], [3_300, 3_300]] as const) {
      const estimate = offsetOf(exchange(offsetMs, outMs, 1_234, backMs))!;
      assert.ok(Math.abs(estimate.offsetMs - offsetMs) <= estimate.errorMs, `offset ${offsetMs} ms, delays ${outMs}/${backMs} ms: ${JSON.stringify(estimate)}`);
    }
  }
});

test('one clock and a 3.3 s stall is no skew beyond a 1 s bound; a 5 s offset through the same stall is', () => {
  const stalled = offsetOf(exchange(0, 3_300, 500, 0))!;
  assert.equal(stalled.offsetMs, 1_650, 'the estimate alone would say 1.6 s');
  assert.equal(beyondBound(stalled, 1_000), false, 'but its interval reaches zero');
  assert.equal(beyondBound(offsetOf(exchange(5_000, 3_300, 500, 0))!, 1_000), true);
  assert.equal(beyondBound(offsetOf(exchange(-5_000, 0, 500, 3_300))!, 1_000), true, 'behind as well as ahead');
});

test('readings no real exchange gives are no estimate', () => {
  const trip = exchange(0, 10, 100, 10);
  assert.equal(offsetOf({ ...trip, peerSent: trip.peerReceived - 1 }), undefined, 'the peer answered before it heard');
  assert.equal(offsetOf({ ...trip, received: trip.sent - 1_000 }), undefined, 'the answer came before the question');
  assert.equal(offsetOf({ ...trip, sent: Number.NaN }), undefined);
});
