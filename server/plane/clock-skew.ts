/**
 * Compares the planes' clocks through the stream: each message carries its plane's clock at
 * publish and the stream leader's at store, so every plane's offset from the leader is known
 * within one publish's latency. Two planes further apart than the bound decide expiries at
 * different moments; that is reported (log and `fleet status`), once per plane and episode.
 */
export class ClockSkew {
  private readonly offsets = new Map<string, number>();
  private readonly reported = new Set<string>();

  constructor(
    private readonly self: string,
    private readonly boundMs: number,
    private readonly log: (message: string) => void,
  ) {}

  /** Returns true when a plane's clock went beyond the bound or came back within it (the problems changed). */
  observe(plane: string, planeClock: number, storedAt: number): boolean {
    if (!Number.isFinite(planeClock) || plane === '') return false;
    this.offsets.set(plane, planeClock - storedAt);
    const mine = this.offsets.get(this.self);
    if (mine === undefined) return false;
    let changed = false;
    for (const [other, offset] of this.offsets) {
      if (other === this.self) continue;
      const skew = Math.abs(offset - mine);
      if (skew > this.boundMs && !this.reported.has(other)) {
        this.reported.add(other);
        this.log(`clock skew: ${this.describe(other, offset - mine)}`);
        changed = true;
      } else if (skew <= this.boundMs && this.reported.delete(other)) changed = true;
    }
    return changed;
  }

  /** One sentence per plane whose clock is off by more than the bound. */
  problems(): string[] {
    const mine = this.offsets.get(this.self);
    if (mine === undefined) return [];
    return [...this.offsets]
      .filter(([plane, offset]) => plane !== this.self && Math.abs(offset - mine) > this.boundMs)
      .map(([plane, offset]) => this.describe(plane, offset - mine));
  }

  private describe(plane: string, skewMs: number): string {
    return `plane ${plane}'s clock is ${(Math.abs(skewMs) / 1000).toFixed(1)} s ${skewMs > 0 ? 'ahead of' : 'behind'} this one's (bound ${this.boundMs / 1000} s): expiries are judged at different moments; sync both machines' clocks (NTP)`;
  }
}
