// Follows the plane's event stream on its own connection, keeps every event, and lets a test wait
// for a particular one: the explicit readiness signal instead of a sleep.
import type { FleetEvent } from '../../contracts/index.js';
import type { PlaneClient } from '../../server/client/plane-client.js';

interface Waiter {
  predicate: (event: FleetEvent) => boolean;
  resolve: (event: FleetEvent) => void;
}

export class EventWatcher {
  readonly events: FleetEvent[] = [];
  private waiters: Waiter[] = [];

  private constructor(readonly client: PlaneClient) {
    client.onNotification((method, params) => {
      if (method !== 'fleet_event') return;
      const event = (params as { event: FleetEvent }).event;
      this.events.push(event);
      if (this.waiters.length === 0) return;
      const due = this.waiters.filter((w) => w.predicate(event));
      if (due.length === 0) return;
      this.waiters = this.waiters.filter((w) => !due.includes(w));
      for (const waiter of due) waiter.resolve(event);
    });
  }

  /** Subscribes from the first event, so the watcher sees the whole history. */
  static async follow(client: PlaneClient): Promise<EventWatcher> {
    const watcher = new EventWatcher(client);
    await client.call('fleet_events_subscribe', { fromSeq: 0 });
    return watcher;
  }

  /** The first event at index `from` or later that satisfies `predicate`. */
  waitFor(predicate: (event: FleetEvent) => boolean, from: number, timeoutMs: number, what: string): Promise<FleetEvent> {
    for (let i = from; i < this.events.length; i++) if (predicate(this.events[i]!)) return Promise.resolve(this.events[i]!);
    return new Promise((resolve, reject) => {
      // A timeout is only the failure path: the success path is the event itself.
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: Waiter = {
        predicate,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
      };
      this.waiters.push(waiter);
    });
  }
}
