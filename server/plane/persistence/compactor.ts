import { SNAPSHOT_SCHEMA_VERSION, type FleetEvent } from '../../../contracts/index.js';
import type { FleetCore } from '../../core/fleet-core.js';
import { toPersisted } from '../../core/state.js';
import type { Store } from '../../store/store.js';
import type { Journal } from './journal.js';
import type { Snapshot } from './snapshot-format.js';

/**
 * Snapshots the state (and rotates the log) every `every` events, so a cold start replays only a
 * short tail. The state is captured at one seq, synchronously (the store writes it out at once,
 * without copying it), and the snapshot lands once every event up to that seq is durable: it never
 * holds an unacknowledged change, and sustained load cannot starve it. One compaction at a time.
 */
export class Compactor {
  private sinceLast: number;
  private running: Promise<void> | undefined;

  constructor(
    private readonly core: FleetCore,
    private readonly journal: Journal,
    private readonly store: Pick<Store<Snapshot, FleetEvent>, 'compact'>,
    private readonly every: number,
    private readonly log: (message: string) => void,
    alreadyInLog: number,
  ) {
    this.sinceLast = alreadyInLog;
  }

  observe(events: number): void {
    this.sinceLast += events;
    if (this.sinceLast >= this.every) void this.compact();
  }

  compact(): Promise<void> {
    this.running ??= this.compactNow().finally(() => (this.running = undefined));
    return this.running;
  }

  /** At shutdown: a snapshot of the state as it is now, after any compaction already under way. */
  async compactLatest(): Promise<void> {
    await this.running;
    await this.compact();
  }

  private async compactNow(): Promise<void> {
    // The store's log must reach the captured seq: events recorded this turn go to it now.
    this.journal.flush();
    const seq = this.core.state.seq;
    this.sinceLast = 0;
    try {
      await this.store.compact({ schemaVersion: SNAPSHOT_SCHEMA_VERSION, state: toPersisted(this.core.state) } as Snapshot, seq);
    } catch (error) {
      this.log(`snapshot at seq ${seq} not written: ${(error as Error).message}`);
    }
  }
}
