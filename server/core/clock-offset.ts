/**
 * NTP's four timestamps of one exchange between this plane and a peer: this plane's clock when it
 * sent a message (`sent`) and when it received the peer's answer (`received`), the peer's clock
 * when it received that message (`peerReceived`) and when it sent its answer (`peerSent`).
 */
export interface RoundTrip {
  sent: number;
  peerReceived: number;
  peerSent: number;
  received: number;
}

/** How far the peer's clock is ahead of this one's (negative: behind), give or take `errorMs`. */
export interface OffsetEstimate {
  offsetMs: number;
  errorMs: number;
}

/** Each reading is rounded to the millisecond: four of them may together be off by this much. */
const ROUNDING_MS = 2;

/**
 * The peer's clock offset from one round trip, as NTP computes it. A one-way message only bounds
 * the offset (its delay is unknown); a round trip bounds it on both sides: the true offset lies
 * within half the time the two messages spent on the way (the round trip less the peer's hold),
 * however that time was split between them. A stalled store lengthens the round trip, so it
 * widens the interval instead of moving the estimate off the truth. Undefined for readings no
 * real exchange gives (the peer answering before it heard, an answer before the question).
 */
export function offsetOf(trip: RoundTrip): OffsetEstimate | undefined {
  const values = [trip.sent, trip.peerReceived, trip.peerSent, trip.received];
  if (!values.every(Number.isFinite)) return undefined;
  const hold = trip.peerSent - trip.peerReceived;
  const roundTrip = trip.received - trip.sent - hold;
  if (hold < 0 || roundTrip < -ROUNDING_MS) return undefined;
  return {
    offsetMs: (trip.peerReceived - trip.sent + (trip.peerSent - trip.received)) / 2,
    errorMs: (Math.max(roundTrip, 0) + ROUNDING_MS) / 2,
  };
}

/** Whether the whole interval lies further from zero than `boundMs`: only then is the skew sure to exceed it. */
export function beyondBound(estimate: OffsetEstimate, boundMs: number): boolean {
  return Math.abs(estimate.offsetMs) - estimate.errorMs > boundMs;
}
