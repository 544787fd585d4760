import type { Clock } from '../core/clock.js';

/**
 * Wall-clock time that only moves forward: anchored to Date.now() at start and advanced by the
 * monotonic clock, so a system clock jump never expires a lease early. `scale` speeds time up
 * for tests (FLEET_TIME_SCALE).
 */
export class PlaneClock implements Clock {
  private readonly wallAtStart: number;
  private readonly monoAtStart = performance.now();

  constructor(
    private readonly scale = 1,
    offsetMs = 0,
  ) {
    this.wallAtStart = Date.now() + offsetMs;
  }

  now(): number {
    return Math.round(this.wallAtStart + (performance.now() - this.monoAtStart) * this.scale);
  }

  /** Real milliseconds until plane time reaches `at`. */
  realDelayUntil(at: number): number {
    return Math.max(0, (at - this.now()) / this.scale);
  }
}
