import type { FleetEvent } from '../../../contracts/index.js';
import type { CoreConfig } from '../../core/context.js';
import { Indexes } from '../../core/indexes.js';
import { applyEvent } from '../../core/reducer.js';
import { emptyState, fromPersisted, toPersisted, type PersistedState, type State } from '../../core/state.js';

/**
 * The state as the shared log has it, applied with the same reducer as the core but holding only
 * what the log took: what a plane falls back to when its own undecided changes are overtaken.
 */
export class ConfirmedReplica {
  private readonly state: State;
  private readonly indexes: Indexes;
  /** The last stream seq applied. */
  streamSeq: number;

  constructor(snapshot: PersistedState | null, tail: readonly FleetEvent[], streamSeq: number, private readonly config: CoreConfig, now: number) {
    // Records are shared by reference between a snapshot and the state built from it: copy.
    this.state = snapshot ? fromPersisted(structuredClone(snapshot)) : emptyState(now);
    this.indexes = Indexes.build(this.state);
    this.apply(tail);
    this.streamSeq = streamSeq;
  }

  get eventSeq(): number {
    return this.state.seq;
  }

  apply(events: readonly FleetEvent[]): void {
    for (const event of events) applyEvent(this.state, this.indexes, event, this.config);
  }

  /** A copy the caller may keep and change. */
  persisted(): PersistedState {
    return structuredClone(toPersisted(this.state));
  }
}
