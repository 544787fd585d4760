import { EVENT_NOTIFICATION, EVENTS_GAP_NOTIFICATION, type EventsGapNotification, type FleetEvent } from '../../../contracts/index.js';
import type { Journal } from '../persistence/journal.js';
import type { Session } from './session.js';

/**
 * One connection's subscription to the event log. A replay (from a sequence number) is read from
 * the log at the pace the client reads it; after that, events are pushed as they become durable.
 * The plane never buffers for a subscriber that falls behind: it gets one gap notice with the
 * sequence to resume from, and the subscription ends.
 */
export class EventFeed {
  private sentSeq = 0;
  private live = false;
  private stopped = false;
  private readonly stopListening: () => void;

  constructor(
    private readonly session: Session,
    private readonly journal: Journal,
    private readonly history: (fromSeq: number) => AsyncIterable<FleetEvent>,
    /** What else the subscription holds, released when the feed ends. */
    private readonly ended: () => void = () => undefined,
  ) {
    this.stopListening = journal.subscribe((events) => this.deliver(events));
  }

  /** Replays the events after `fromSeq`, if given, then follows the log; resolves with the last durable seq at the start. */
  async start(fromSeq: number | undefined): Promise<number> {
    const seq = this.journal.lastDurableSeq;
    this.sentSeq = fromSeq ?? seq;
    while (!this.stopped && this.sentSeq < this.journal.lastDurableSeq) {
      const before = this.sentSeq;
      await this.replayTo(this.journal.lastDurableSeq);
      if (this.sentSeq === before) break; // the log had nothing more to give: never spin
    }
    // No await since the last check: no event can have become durable unseen in between.
    this.live = true;
    return seq;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopListening();
    this.ended();
  }

  private async replayTo(target: number): Promise<void> {
    for await (const event of this.history(this.sentSeq + 1)) {
      if (event.seq > target) break;
      if (this.session.notificationsBehind()) await this.session.notificationsDrained();
      if (this.stopped) break;
      this.send(event);
    }
  }

  private deliver(events: readonly FleetEvent[]): void {
    if (!this.live || this.stopped) return;
    if (this.session.notificationsBehind()) {
      const gap: EventsGapNotification = {
        fromSeq: this.sentSeq,
        reason: 'this connection fell behind reading events; subscribe again with this fromSeq to replay what it missed',
      };
      this.session.notify(EVENTS_GAP_NOTIFICATION, gap);
      this.stop();
      return;
    }
    for (const event of events) if (event.seq > this.sentSeq) this.send(event);
  }

  private send(event: FleetEvent): void {
    this.sentSeq = event.seq;
    this.session.notify(EVENT_NOTIFICATION, { event });
  }
}
