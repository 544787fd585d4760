import { beyondBound, offsetOf, type OffsetEstimate } from '../../core/clock-offset.js';
import { echoedTo } from './clock-echo.js';

/**
 * How long a round trip's estimate counts: the best estimate of this span stands for the plane
 * (a delayed exchange inside it does not count), and a clock set right shows within it.
 */
const ESTIMATE_WINDOW_MS = 5 * 60_000;
/** Estimates kept per plane within the window (the newest): a busy plane's memory stays bounded. */
const MAX_ESTIMATES = 64;
/** Planes compared at most (the most recently heard): far more than a fleet has, a bound on what its stream can make a plane hold. */
export const MAX_COMPARED_PLANES = 256;

interface Sample extends OffsetEstimate {
  at: number;
}

/** A message of another plane as this one received it. */
export interface HeardMessage {
  plane: string;
  /** The sender's clock at publish (its message's clock header). */
  planeClock: number;
  /** Its clock echo header, if it sent one (see clock-echo.ts). */
  clockEcho: string | undefined;
  /** This plane's clock when the message arrived. */
  receivedAt: number;
}

/**
 * Compares this plane's clock with each other plane's, NTP's way. A message of a peer that echoes
 * one of this plane's messages back closes a round trip; its estimate bounds the peer's offset on
 * both sides, within half the time the messages spent on the way (server/core/clock-offset.ts).
 * A store stall, a hung node or a slow link lengthens that time, and so widens the interval: the
 * estimate of a plane is its shortest round trip of the last ESTIMATE_WINDOW_MS (NTP keeps its
 * least delayed sample), and a plane is reported only when that whole interval lies beyond the
 * bound — planes sharing a clock never are, however late their messages. Two planes further apart
 * than the bound decide expiries at different moments; that is reported (log and `fleet status`),
 * once per plane and episode. A plane that echoes nothing (an older version) is not compared.
 */
export class ClockSkew {
  private readonly samples = new Map<string, Sample[]>();
  private readonly reported = new Set<string>();
  /** Planes whose unreadable echo was logged already (once each, not per message). */
  private readonly unreadable = new Set<string>();

  constructor(
    private readonly self: string,
    private readonly boundMs: number,
    private readonly log: (message: string) => void,
  ) {}

  /** Returns true when the plane's clock went beyond the bound or came back within it (the problems changed). */
  observe(message: HeardMessage): boolean {
    const { plane } = message;
    if (plane === this.self || plane === '') return false;
    const echo = echoedTo(this.self, message.clockEcho);
    if (echo instanceof Error) {
      if (!this.unreadable.has(plane) && this.unreadable.size < MAX_COMPARED_PLANES) {
        this.unreadable.add(plane);
        this.log(`clock skew: plane ${plane}'s clock echo is unreadable (${echo.message}); its clock is not compared with this one's until it sends a readable one (is it a plane of this version?)`);
      }
      return false;
    }
    if (echo === undefined) return false;
    const estimate = offsetOf({ sent: echo.sent, peerReceived: echo.peerReceived, peerSent: message.planeClock, received: message.receivedAt });
    if (estimate === undefined) return false;
    this.record(plane, { ...estimate, at: message.receivedAt });
    const best = this.best(plane)!;
    if (beyondBound(best, this.boundMs) && !this.reported.has(plane)) {
      this.reported.add(plane);
      this.log(`clock skew: ${this.describe(plane, best)}`);
      return true;
    }
    return !beyondBound(best, this.boundMs) && this.reported.delete(plane);
  }

  /** One sentence per plane whose clock is surely off by more than the bound. */
  problems(): string[] {
    return [...this.samples.keys()]
      .map((plane) => [plane, this.best(plane)!] as const)
      .filter(([, best]) => beyondBound(best, this.boundMs))
      .map(([plane, best]) => this.describe(plane, best));
  }

  private record(plane: string, sample: Sample): void {
    const since = sample.at - ESTIMATE_WINDOW_MS;
    const kept = (this.samples.get(plane) ?? []).filter((s) => s.at >= since);
    kept.push(sample);
    this.samples.delete(plane); // re-inserted last: the map keeps the most recently heard at its end
    this.samples.set(plane, kept.slice(-MAX_ESTIMATES));
    if (this.samples.size > MAX_COMPARED_PLANES) {
      const longestSilent = this.samples.keys().next().value!;
      this.samples.delete(longestSilent);
      this.reported.delete(longestSilent);
    }
  }

  /** The plane's estimate of the shortest round trip in the window (the narrowest interval). */
  private best(plane: string): Sample | undefined {
    return this.samples.get(plane)?.reduce((best, s) => (s.errorMs < best.errorMs ? s : best));
  }

  private describe(plane: string, estimate: OffsetEstimate): string {
    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    return `plane ${plane}'s clock is ${seconds(Math.abs(estimate.offsetMs))} s ${estimate.offsetMs > 0 ? 'ahead of' : 'behind'} this one's (± ${seconds(estimate.errorMs)} s; bound ${this.boundMs / 1000} s): expiries are judged at different moments; sync both machines' clocks (NTP)`;
  }
}
