import { EVENT_NOTIFICATION, eventNotificationSchema, EVENTS_GAP_NOTIFICATION, eventsGapNotificationSchema, type FleetEvent } from '../../contracts/index.js';
import type { PlaneClient } from '../client/plane-client.js';

/** What the train and the forecast did for the demo's work, for its summary. */
export interface TrainStats {
  landed: number;
  conflictsForecast: number;
  /** Items the train sent back because they conflicted (with the target or a batch-mate). */
  conflictsHit: number;
  redBuilds: number;
}

/**
 * Follows the plane's event log for the demo's repository: the forecasts about its builders, the
 * train's batches and what left it. It narrates them, counts them, and tells the builders when a
 * planted item has been sent back (they fix it in the rework).
 */
export class TrainWatch {
  readonly stats: TrainStats = { landed: 0, conflictsForecast: 0, conflictsHit: 0, redBuilds: 0 };
  private scope: string | undefined;

  constructor(
    private readonly isDemoAgent: (callsign: string) => boolean,
    private readonly isDemoItem: (itemId: string) => boolean,
    private readonly log: (message: string) => void,
    private readonly sentBack: (itemId: string, cause: 'conflict' | 'red') => void,
  ) {}

  /** Starts following from the plane's current sequence number. */
  async start(client: PlaneClient, scope: string): Promise<void> {
    this.scope = scope;
    client.onNotification((method, params) => {
      if (method === EVENT_NOTIFICATION) this.onEvent(eventNotificationSchema.parse(params).event);
      // Fell behind: the plane stopped sending; pick up where it stopped.
      if (method === EVENTS_GAP_NOTIFICATION) void client.call('fleet_events_subscribe', { fromSeq: eventsGapNotificationSchema.parse(params).fromSeq }).catch(() => undefined);
    });
    const { plane } = await client.call('fleet_status', {});
    await client.call('fleet_events_subscribe', { fromSeq: plane.seq });
  }

  /** The items of the demo's repository the train still holds (queued or building). */
  async onTrain(client: PlaneClient, root: string): Promise<string[]> {
    const status = await client.call('fleet_integrate_status', { root });
    return status.entries.filter((e) => e.status === 'queued' || e.status === 'building').map((e) => e.itemId);
  }

  private onEvent(event: FleetEvent): void {
    if (event.type === 'integration.forecast' && event.status === 'conflict' && this.isDemoAgent(event.callsign)) {
      this.stats.conflictsForecast++;
      this.log(`forecast: ${event.callsign}'s ${short(event.branch)} conflicts with ${event.otherCallsign !== undefined ? `${event.otherCallsign}'s ${short(event.otherBranch)}` : `the target ${short(event.otherBranch)}`} in ${event.paths.join(', ')}`);
    } else if (event.type === 'integration.batch' && event.scope === this.scope && event.tip === undefined) {
      this.log(`train: building ${event.itemIds.join(', ')} merged on ${event.base.slice(0, 8)}`);
    } else if (event.type === 'integration.batch_ended' && event.scope === this.scope && event.red === true) {
      this.stats.redBuilds++;
      this.log('train: the build is RED: the batch is split to find the culprit');
    } else if (event.type === 'integration.left' && this.isDemoItem(event.itemId)) {
      this.onLeft(event);
    }
  }

  private onLeft(event: Extract<FleetEvent, { type: 'integration.left' }>): void {
    if (event.status === 'landed') {
      this.stats.landed++;
      this.log(`train: landed ${event.itemId}${event.landedCommit !== undefined ? ` as ${event.landedCommit.slice(0, 8)}` : ''}`);
      return;
    }
    if (event.cause === 'conflict') this.stats.conflictsHit++;
    if (event.status === 'returned' && (event.cause === 'conflict' || event.cause === 'red')) this.sentBack(event.itemId, event.cause);
    this.log(`train: sent ${event.itemId} back (${event.cause ?? event.status}): ${event.reason ?? ''}`);
  }
}

const short = (ref: string | undefined) => (ref ?? 'a detached HEAD').replace(/^refs\/heads\//, '');
