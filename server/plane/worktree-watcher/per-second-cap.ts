/** At most `limit` takes per second; the first refusal of each second is reported, the rest are silent. */
export class PerSecondCap {
  private windowStart = -Infinity;
  private taken = 0;

  constructor(
    private readonly limit: number,
    private readonly onCapped: () => void,
  ) {}

  /** Whether this second's takes are used up (a take now would be refused). */
  full(now: number): boolean {
    this.roll(now);
    return this.taken >= this.limit;
  }

  take(now: number): boolean {
    this.roll(now);
    this.taken++;
    if (this.taken === this.limit + 1) this.onCapped();
    return this.taken <= this.limit;
  }

  private roll(now: number): void {
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.taken = 0;
    }
  }
}
