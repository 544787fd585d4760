// The extension host's memory and CPU as the in-host module sees its own process (it runs inside
// it): cumulative CPU time and resident set size every 250 ms. A busy host delays a sample, never
// loses CPU time: each window's share is the CPU time between the samples at its ends.
import type { HostFigures } from './signals.js';

const HOST_SAMPLE_MS = 250;
/** The windows after the churn stops: DESIGN §16 wants the host idle again within 5 s. */
const SETTLE_MS = 5_000;

interface Sample {
  at: number;
  rss: number;
  /** User + system CPU time so far, µs. */
  cpuUs: number;
}

export class HostSampler {
  private readonly samples: Sample[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.sample();
    this.timer = setInterval(() => this.sample(), HOST_SAMPLE_MS);
  }

  /** Stops sampling; `stoppedAt` is when the churn stopped (the bench waits 2 × SETTLE_MS before asking). */
  figures(stoppedAt: number): HostFigures {
    clearInterval(this.timer);
    this.sample();
    const first = this.samples[0]!;
    const last = this.samples.at(-1)!;
    return {
      peakRssMb: Math.max(...this.samples.map((s) => s.rss)) / 2 ** 20,
      rssAtEndMb: last.rss / 2 ** 20,
      churnCpu: this.share(first.at, stoppedAt),
      settlingCpu: this.share(stoppedAt, stoppedAt + SETTLE_MS),
      afterSettlingCpu: this.share(stoppedAt + SETTLE_MS, stoppedAt + 2 * SETTLE_MS),
    };
  }

  private sample(): void {
    const cpu = process.cpuUsage();
    this.samples.push({ at: Date.now(), rss: process.memoryUsage.rss(), cpuUs: cpu.user + cpu.system });
  }

  /** CPU time over wall time between the samples nearest `from` and `to`. */
  private share(from: number, to: number): number {
    const nearest = (at: number) => this.samples.reduce((best, s) => (Math.abs(s.at - at) < Math.abs(best.at - at) ? s : best));
    const a = nearest(from);
    const b = nearest(to);
    return b.at > a.at ? (b.cpuUs - a.cpuUs) / 1000 / (b.at - a.at) : 0;
  }
}
