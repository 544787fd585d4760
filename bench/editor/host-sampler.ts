// The extension host's memory and CPU, read from /proc by the bench (outside the window): the
// host is found among this process's descendants by its command line, then its resident set and
// CPU ticks are sampled every 250 ms. Read from outside, the figures survive a host too busy to
// answer, which is what they are there to show.
import { readdirSync, readFileSync } from 'node:fs';
import { cpuOf } from '../lib/proc.js';

const HOST_SAMPLE_MS = 250;
/** The windows after the churn stops: DESIGN §16 wants the host idle again within 5 s. */
export const SETTLE_MS = 5_000;
const TICKS_PER_SECOND = 100;

/** The extension host process, from the window ready to the end of the churn + 2 × SETTLE_MS. */
export interface HostFigures {
  /** Resident set size: the most it reached, and at the end. */
  peakRssMb: number;
  rssAtEndMb: number;
  /** Share of one core while the fleet churned, in the 5 s after it stopped, and in the 5 s after those. */
  churnCpu: number;
  settlingCpu: number;
  afterSettlingCpu: number;
}

interface Sample {
  at: number;
  rssKb: number;
  ticks: number;
}

export class HostSampler {
  private readonly samples: Sample[] = [];
  private readonly timer: NodeJS.Timeout;
  private pid: number | undefined;
  private churnStartedAt = 0;
  private churnStoppedAt = 0;

  constructor() {
    this.timer = setInterval(() => this.sample(), HOST_SAMPLE_MS);
    this.sample();
  }

  churnStarted(): void {
    this.churnStartedAt = Date.now();
  }

  churnStopped(): void {
    this.churnStoppedAt = Date.now();
  }

  figures(): HostFigures | undefined {
    this.dispose();
    this.sample();
    if (this.samples.length < 2) return undefined;
    const stopped = this.churnStoppedAt || Date.now();
    return {
      peakRssMb: Math.max(...this.samples.map((s) => s.rssKb)) / 1024,
      rssAtEndMb: this.samples.at(-1)!.rssKb / 1024,
      churnCpu: this.share(this.churnStartedAt || this.samples[0]!.at, stopped),
      settlingCpu: this.share(stopped, stopped + SETTLE_MS),
      afterSettlingCpu: this.share(stopped + SETTLE_MS, stopped + 2 * SETTLE_MS),
    };
  }

  dispose(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    this.pid ??= findExtensionHost();
    if (this.pid === undefined) return;
    try {
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'))?.[1];
      this.samples.push({ at: Date.now(), rssKb: Number(rss ?? 0), ticks: cpuOf(this.pid).ticks });
    } catch {
      this.pid = undefined; // gone (the window closed): the samples so far stand
    }
  }

  /** CPU time over wall time between the samples nearest `from` and `to`. */
  private share(from: number, to: number): number {
    const nearest = (at: number) => this.samples.reduce((best, s) => (Math.abs(s.at - at) < Math.abs(best.at - at) ? s : best));
    const a = nearest(from);
    const b = nearest(to);
    return b.at > a.at ? (b.ticks - a.ticks) / TICKS_PER_SECOND / ((b.at - a.at) / 1000) : 0;
  }
}

/** The VS Code server's extension host among this process's descendants (one window at a time). */
function findExtensionHost(): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('--type=extensionHost')) continue;
      if (descendsFromUs(Number(entry))) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

function descendsFromUs(pid: number): boolean {
  for (let at = pid; at > 1; ) {
    const parent = cpuOf(at).ppid;
    if (parent === process.pid) return true;
    at = parent;
  }
  return false;
}
