import { SNAPSHOT_SCHEMA_VERSION, type FleetEvent, type StoreHealth } from '../../../contracts/index.js';
import type { FleetCore } from '../../core/fleet-core.js';
import type { PersistedState } from '../../core/state.js';
import type { LogMessage, NatsStore, Refusal } from '../../store/nats/nats-store.js';
import { StoreRetryError } from '../../store/store.js';
import { ClockEcho } from './clock-echo.js';
import { ClockSkew } from './clock-skew.js';
import { ConfirmedReplica } from './confirmed-replica.js';
import { keepHeard } from './liveness-relay.js';
import type { Journal } from '../persistence/journal.js';
import type { Snapshot } from '../persistence/snapshot-format.js';

export interface ReplicaSyncOptions {
  planeId: string;
  servers: readonly string[];
  /** Snapshot the confirmed state every this many events, so a start replays only a short tail. */
  snapshotEvery: number;
  clockSkewBoundMs: number;
  now(): number;
  log(message: string): void;
  /** Called when `health()` changes in what it says (cut off, back, a clock skew seen or gone), not as staleSeconds ticks. */
  healthChanged(): void;
}

/** A catch-up that waits this long on the follower (real ms) has the follower replaced. */
const FOLLOWER_STALL_MS = 2_000;

/** Creating the follower's consumer is tried again this often, and at start this many times. */
const FOLLOW_RETRY_MS = 500;
const FOLLOW_START_ATTEMPTS = 20;

/** A read barrier waits at most this long for the follower. */
const CATCH_UP_BOUND_MS = 2_000;

/** While cut off, how often the plane asks the cluster whether a quorum answers again. */
const PROBE_MS = 500;

/**
 * Keeps one plane's core in the shared order of a JetStream stream (DESIGN §13). The core decides
 * against its replica and the store publishes with the expected last sequence; every message is
 * applied here, in stream order, to a confirmed replica. Another plane's message is adopted by
 * the core when the core has nothing undecided; otherwise the core's undecided changes are
 * overtaken: they are refused (their calls are decided again), and once the replica has caught
 * up the core is reset to it. Cut off from a quorum, mutations are refused and reads carry their
 * staleness until a probe finds the cluster again.
 */
export class ReplicaSync {
  private readonly confirmed: ConfirmedReplica;
  private readonly skew: ClockSkew;
  private readonly echo: ClockEcho;
  /** Set while the core is being rolled back to the replica. */
  private rebasing: { target: number; error: StoreRetryError; settle(): void; since: number } | undefined;
  /** Messages of others the core has not adopted yet (it will take them with the reset). */
  private unseen: FleetEvent[] = [];
  private unavailable: string | undefined;
  private lastContact: number;
  private sinceSnapshot = 0;
  private stopFollowing: (() => Promise<void>) | undefined;
  private probe: NodeJS.Timeout | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private restarting = false;
  private closing = false;
  private snapshotting: Promise<void> | undefined;
  /** Calls waiting for the core to rest on at least a stream seq (`barrier`). */
  private readonly catchingUp: { seq: number; resolve(): void }[] = [];
  /** Counts each time others' events entered the core (adopted, or with a reset): what a barrier compares. */
  private adoptions = 0;

  constructor(
    private readonly core: FleetCore,
    private readonly journal: Journal,
    private readonly store: NatsStore<Snapshot, FleetEvent>,
    recovered: { snapshot: PersistedState | null; tail: readonly FleetEvent[] },
    private readonly options: ReplicaSyncOptions,
  ) {
    this.confirmed = new ConfirmedReplica(recovered.snapshot, recovered.tail, store.base, core.config, options.now());
    this.skew = new ClockSkew(options.planeId, options.clockSkewBoundMs, options.log);
    this.echo = new ClockEcho(options.planeId);
    store.clockEcho = (now) => this.echo.header(now);
    this.lastContact = Date.now();
    store.onRefused = (refusal) => this.refused(refusal);
    store.onStored = (streamSeq, events) => this.stored(streamSeq, events);
  }

  async start(): Promise<void> {
    await this.followFromApplied(FOLLOW_START_ATTEMPTS);
    void this.watchConnection();
    this.watchdog = setInterval(() => {
      if (this.rebasing && Date.now() - this.rebasing.since > FOLLOWER_STALL_MS) void this.restartFollower();
    }, FOLLOWER_STALL_MS);
  }

  /**
   * A follower that lost its consumer (its node died, the connection moved) may stall rather
   * than fail: one that keeps a catch-up waiting, whose connection moved to another server, or
   * whose consumer gave up, is replaced, from the last message applied. Readers of this plane's
   * events (`fleet events --follow`, the editor) hear of the other planes' changes through it.
   */
  private async restartFollower(): Promise<void> {
    if (this.restarting) return;
    this.restarting = true;
    try {
      await this.stopFollowing?.().catch(() => undefined);
      this.stopFollowing = undefined;
      await this.followFromApplied(Infinity);
      if (this.rebasing) this.rebasing.since = Date.now();
    } catch (error) {
      this.options.log(`store: not following the stream (${(error as Error).message})`);
    } finally {
      this.restarting = false;
    }
  }

  /**
   * Follows the stream after the last message applied. Creating the consumer fails while the
   * cluster elects a leader in place of a hung or dead one (a request to the old one is never
   * answered): it is tried again every FOLLOW_RETRY_MS, `attempts` times at most, until closed.
   */
  private async followFromApplied(attempts: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        this.stopFollowing = await this.store.follow(
          this.confirmed.streamSeq,
          (message) => this.receive(message),
          (error) => {
            this.options.log(`store: following the stream ended (${error?.message ?? 'its consumer went away'}); following again`);
            void this.restartFollower();
          },
        );
        return;
      } catch (error) {
        if (attempt >= attempts || this.closing) throw error;
        if (attempt === 1) this.options.log(`store: following the stream failed (${(error as Error).message}); trying again every ${FOLLOW_RETRY_MS / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, FOLLOW_RETRY_MS));
      }
    }
  }

  /**
   * A read barrier begun as a decision is made on the core. What it returns resolves true if that
   * decision may have missed others' events, so the caller decides again: some entered the core
   * since (while the caller waited for durability or for the probe), or the stream held some the
   * core lacked (it waits for those first). False when the decision rested on the whole log, or
   * the cluster does not answer (the answer then says how stale it is).
   */
  barrier(): () => Promise<boolean> {
    const adoptionsAtDecision = this.adoptions;
    return async () => {
      const head = await this.store.probe();
      if (head !== undefined && head > this.store.base) {
        await new Promise<void>((resolve) => {
          this.catchingUp.push({ seq: head, resolve });
          setTimeout(resolve, CATCH_UP_BOUND_MS);
        });
        return true;
      }
      return this.adoptions !== adoptionsAtDecision;
    };
  }

  private releaseCaughtUp(): void {
    for (let i = this.catchingUp.length - 1; i >= 0; i--) {
      if (this.catchingUp[i]!.seq <= this.store.base) this.catchingUp.splice(i, 1)[0]!.resolve();
    }
  }

  health(): StoreHealth {
    const staleMs = Date.now() - this.lastContact;
    const problems = [...(this.unavailable === undefined ? [] : [this.unavailable]), ...this.skew.problems()];
    return {
      kind: 'nats',
      health: this.unavailable === undefined ? 'ok' : 'unavailable',
      fleet: this.store.names.fleet,
      stream: this.store.names.stream,
      servers: [...this.options.servers],
      ...(this.unavailable !== undefined && { staleSeconds: Math.round(staleMs / 100) / 10, lastContactAt: new Date(this.lastContact).toISOString() }),
      ...(problems.length > 0 && { problems }),
    };
  }

  /** At shutdown: a last snapshot of the confirmed state, then stop following. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.probe);
    clearInterval(this.watchdog);
    await this.snapshotting;
    await this.snapshot();
    await this.stopFollowing?.().catch(() => undefined);
  }

  private receive(message: LogMessage<FleetEvent>): void {
    const receivedAt = this.options.now();
    this.echo.heard(message.plane, message.planeClock, receivedAt);
    if (this.skew.observe({ ...message, receivedAt })) this.options.healthChanged();
    if (message.streamSeq <= this.confirmed.streamSeq) return; // ours, confirmed when acknowledged; or a replaced follower's late delivery
    this.confirm(message.streamSeq, message.events);
    // Ours and in the core: acknowledged already, or the message in flight whose ack is on its way.
    const inCore = message.streamSeq <= this.store.base || (message.id !== undefined && message.id === this.store.inFlightId);
    if (this.rebasing) {
      if (inCore) this.store.storedInFlight(message.id, message.streamSeq);
      else this.unseen.push(...message.events);
      this.finishRebase();
    } else if (inCore) {
      this.store.storedInFlight(message.id, message.streamSeq);
    } else if (this.core.state.seq > this.journal.lastDurableSeq || message.streamSeq !== this.store.base + 1) {
      // The core decided things on top of a state this message has now overtaken.
      this.unseen.push(...message.events);
      this.rebase({ kind: 'superseded', detail: 'another plane decided first', head: message.streamSeq });
    } else {
      this.core.adopt(message.events);
      this.adoptions++;
      this.store.base = message.streamSeq;
      this.journal.adopt(message.events);
    }
    if (this.catchingUp.length > 0) this.releaseCaughtUp();
  }

  /**
   * A message of ours is stored at `streamSeq`. It was published to follow the core's base, so when
   * the replica is at the seq before it, it takes the message now rather than when the follower
   * brings it: a rollback waits for the replica to hold every acknowledged message, and a cut-off
   * can hold the follower back while reads would wait on a core about to be rolled back.
   */
  private stored(streamSeq: number, events: readonly FleetEvent[]): void {
    if (streamSeq === this.confirmed.streamSeq + 1) this.confirm(streamSeq, events);
    if (this.rebasing) this.finishRebase(); // the follower's delivery of it will be skipped as confirmed
    if (this.catchingUp.length > 0) this.releaseCaughtUp(); // the core rests on it now
  }

  private confirm(streamSeq: number, events: readonly FleetEvent[]): void {
    this.contact();
    this.confirmed.apply(events);
    this.confirmed.streamSeq = streamSeq;
    this.sinceSnapshot += events.length;
    if (this.sinceSnapshot >= this.options.snapshotEvery && !this.snapshotting) {
      this.snapshotting = this.snapshot().finally(() => (this.snapshotting = undefined));
    }
  }

  private refused(refusal: Refusal): StoreRetryError {
    if (refusal.kind === 'unavailable') this.cutOff(refusal.detail);
    return this.rebase(refusal);
  }

  private rebase(refusal: Refusal): StoreRetryError {
    const target = Math.max(refusal.head ?? 0, this.store.lastAcked);
    if (this.rebasing) {
      this.rebasing.target = Math.max(this.rebasing.target, target);
      return this.rebasing.error;
    }
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const error = new StoreRetryError(refusal.kind, refusal.kind === 'superseded' ? 'another plane decided first; deciding again on the caught-up state' : refusal.detail, settled);
    this.rebasing = { target, error, settle, since: Date.now() };
    this.store.refuse(error);
    this.journal.discard(error, this.store.lastAckedEventSeq);
    this.finishRebase();
    return error;
  }

  /** Once the replica holds everything the refusal named, the core becomes the replica. */
  private finishRebase(): void {
    const rebasing = this.rebasing;
    if (!rebasing || this.confirmed.streamSeq < rebasing.target || this.confirmed.streamSeq < this.store.lastAcked) return;
    this.rebasing = undefined;
    this.journal.discard(rebasing.error, this.store.lastAckedEventSeq); // what was decided while waiting rests on the old state too
    this.core.reset(keepHeard(this.confirmed.persisted(), this.core.state));
    this.adoptions++;
    this.journal.rebase(this.core.state.seq - this.unseen.length);
    this.journal.adopt(this.unseen.splice(0));
    this.store.resume(this.confirmed.streamSeq);
    rebasing.settle();
  }

  private contact(): void {
    this.lastContact = Date.now();
    if (this.unavailable === undefined) return;
    this.unavailable = undefined;
    clearInterval(this.probe);
    this.options.log('store: the JetStream cluster answers again; mutations are taken');
    this.options.healthChanged();
  }

  private cutOff(why: string): void {
    if (this.unavailable !== undefined) return;
    this.unavailable = `no quorum of the JetStream cluster at ${this.options.servers.join(',')} answers (${why})`;
    this.options.log(`store: ${this.unavailable}: mutations are refused (STORE_UNAVAILABLE) until it does`);
    this.options.healthChanged();
    let probing = false;
    this.probe = setInterval(() => {
      if (probing) return;
      probing = true;
      void this.store.probe().then((head) => {
        probing = false;
        // What others stored meanwhile reaches the core through the follower before anything is taken.
        if (head !== undefined) this.contact();
      });
    }, PROBE_MS);
  }

  private async watchConnection(): Promise<void> {
    for await (const status of this.store.connection.status()) {
      if (status.type === 'disconnect') this.cutOff('the connection to NATS dropped');
      if (status.type === 'staleConnection') this.options.log('store: the NATS server stopped answering pings (hung?): moving to another');
      if (status.type === 'reconnect') {
        this.options.log(`store: connected to NATS at ${status.server}; following the stream from there`);
        void this.restartFollower();
      }
    }
  }

  private async snapshot(): Promise<void> {
    this.sinceSnapshot = 0;
    const seq = this.confirmed.streamSeq;
    try {
      await this.store.writeSnapshot({ schemaVersion: SNAPSHOT_SCHEMA_VERSION, state: this.confirmed.persisted() } as Snapshot, this.confirmed.eventSeq, seq);
    } catch (error) {
      this.options.log(`snapshot at stream seq ${seq} not written: ${(error as Error).message}`);
    }
  }
}
