/**
 * How long a message's reading of its plane's clock counts: the best reading of this span stands
 * for the plane (a late delivery inside it does not count), and a clock set right shows within it.
 */
const READING_WINDOW_MS = 5 * 60_000;
/** Readings kept per plane within the window (the newest): a busy plane's memory stays bounded. */
const MAX_READINGS = 64;

interface Reading {
  offset: number;
  storedAt: number;
}

/**
 * Compares the planes' clocks through the stream: each message carries its plane's clock at
 * publish and the stream leader's at store. Their difference is the plane's offset from the leader
 * less the time the message took to be stored — a store stall or a publish held in a hung node's
 * socket makes a plane look behind, never ahead. So a plane's offset is its best (highest) reading
 * of the last READING_WINDOW_MS, the one least delayed, as NTP keeps its least delayed sample.
 * Two planes further apart than the bound decide expiries at different moments; that is reported
 * (log and `fleet status`), once per plane and episode.
 */
export class ClockSkew {
  private readonly readings = new Map<string, Reading[]>();
  private readonly reported = new Set<string>();

  constructor(
    private readonly self: string,
    private readonly boundMs: number,
    private readonly log: (message: string) => void,
  ) {}

  /** Returns true when a plane's clock went beyond the bound or came back within it (the problems changed). */
  observe(plane: string, planeClock: number, storedAt: number): boolean {
    if (!Number.isFinite(planeClock) || !Number.isFinite(storedAt) || plane === '') return false;
    this.record(plane, { offset: planeClock - storedAt, storedAt });
    const mine = this.offset(this.self);
    if (mine === undefined) return false;
    let changed = false;
    for (const other of this.readings.keys()) {
      if (other === this.self) continue;
      const skew = this.offset(other)! - mine;
      if (Math.abs(skew) > this.boundMs && !this.reported.has(other)) {
        this.reported.add(other);
        this.log(`clock skew: ${this.describe(other, skew)}`);
        changed = true;
      } else if (Math.abs(skew) <= this.boundMs && this.reported.delete(other)) changed = true;
    }
    return changed;
  }

  /** One sentence per plane whose clock is off by more than the bound. */
  problems(): string[] {
    const mine = this.offset(this.self);
    if (mine === undefined) return [];
    return [...this.readings.keys()]
      .filter((plane) => plane !== this.self)
      .map((plane) => [plane, this.offset(plane)! - mine] as const)
      .filter(([, skew]) => Math.abs(skew) > this.boundMs)
      .map(([plane, skew]) => this.describe(plane, skew));
  }

  private record(plane: string, reading: Reading): void {
    const since = reading.storedAt - READING_WINDOW_MS;
    const kept = (this.readings.get(plane) ?? []).filter((r) => r.storedAt >= since);
    kept.push(reading);
    this.readings.set(plane, kept.slice(-MAX_READINGS));
  }

  /** The plane's least delayed reading of the window; undefined before its first message. */
  private offset(plane: string): number | undefined {
    const readings = this.readings.get(plane);
    return readings === undefined ? undefined : Math.max(...readings.map((r) => r.offset));
  }

  private describe(plane: string, skewMs: number): string {
    return `plane ${plane}'s clock is ${(Math.abs(skewMs) / 1000).toFixed(1)} s ${skewMs > 0 ? 'ahead of' : 'behind'} this one's (bound ${this.boundMs / 1000} s): expiries are judged at different moments; sync both machines' clocks (NTP)`;
  }
}
