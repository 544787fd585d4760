// The store of a fleet that spans machines (DESIGN §13): the event log is a replicated JetStream
// stream, the shared total order of every plane's mutations; snapshots sit in an object store.
import { DeliverPolicy, JetStreamApiError, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { headers, type NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { StoreCorruptError, StoreRetryError, type Recovered, type Store, type StoreStats } from '../store.js';
import { ensureStream, STREAM_FORMAT } from './fleet-stream.js';
import { connectNats, NatsStartError } from './nats-connect.js';
import { fleetNames, type FleetNames } from './nats-names.js';
import { StartBudget } from './start-budget.js';

export interface NatsStoreOptions<S, E> {
  servers: readonly string[];
  credsFile?: string;
  fleet: string;
  /** Names this plane's messages in the stream (a header), so it knows its own when they return. */
  planeId: string;
  planeVersion: string;
  snapshotSchema: z.ZodType<S>;
  eventSchema: z.ZodType<E>;
  /** The plane's clock, stamped on each message so planes can compare clocks. */
  now(): number;
  /** How long start-up waits for a cluster still coming up (seconds; default 60). */
  startTimeoutSeconds?: number;
  /** Where start-up says what it waits for. */
  log?(message: string): void;
}

/** One message of the stream: one decided command batch of one plane. */
export interface LogMessage<E> {
  streamSeq: number;
  plane: string;
  /** The message id it was published with (unique per plane and message). */
  id: string | undefined;
  /** The publishing plane's clock at publish (epoch ms). */
  planeClock: number;
  /** What the publishing plane echoed of the others' clocks (its CLOCK_ECHO_HEADER), if anything. */
  clockEcho: string | undefined;
  events: E[];
}

/** Why a refused append was refused: its kind, a sentence, and the stream's last seq if known. */
export type Refusal = { kind: StoreRetryError['kind']; detail: string; head?: number };

const PLANE_HEADER = 'Fleet-Plane';
/** The publishing plane's clock at publish (epoch ms), a header of every message. */
export const CLOCK_HEADER = 'Fleet-Clock';
/** The publishing plane's echo of the clocks of the messages it received (server/plane/shared-log/clock-echo.ts). */
export const CLOCK_ECHO_HEADER = 'Fleet-Clock-Echo';
const SNAPSHOT_OBJECT = 'latest';
/** A publish that no quorum acknowledges within this is taken as the store being out of reach. */
const PUBLISH_TIMEOUT_MS = 3_000;
const CONSUMER_CREATE_TIMEOUT_MS = 3_000;
const WRONG_LAST_SEQUENCE = 10071;
const DEFAULT_START_TIMEOUT_S = 60;
/**
 * A reader's pull expires (and the server's idle heartbeats come) at this pace, so a reader whose
 * consumer died with its node notices within seconds and re-creates it elsewhere (the client's
 * default, 30 s, leaves a follower deaf for a minute).
 */
const PULL_EXPIRES_MS = 4_000;
/** A read of the stream that fails (its node died mid-read) is resumed where it stopped for this long. */
const READ_RESUME_BOUND_MS = 15_000;
/** Start-up takes a single replica on a cluster that cannot place three only after this long (its peers may still be booting). */
const REPLICA_GRACE_S = 10;

interface PendingAppend<E> {
  events: readonly E[];
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Appends go out one message at a time, each with the stream seq its decisions rest on as the
 * expected last sequence; appends made while one is in flight share the next message (group
 * commit). A refused message (another plane got there first, or no quorum) refuses everything
 * decided after it, with the error the plane's `onRefused` makes (it rolls the plane back).
 */
export class NatsStore<S, E extends { seq: number; type: string }> implements Store<S, E> {
  readonly names: FleetNames;
  readonly #options: NatsStoreOptions<S, E>;
  #nc: NatsConnection | undefined;
  #js: JetStreamClient | undefined;
  /** For readers: creating a consumer is answered quickly or not at all (a hung leader swallows it), so it is retried rather than awaited long. */
  #jsReader: JetStreamClient | undefined;
  #jsm: JetStreamManager | undefined;
  #snapshots: ObjectStore | undefined;
  #queue: PendingAppend<E>[] = [];
  /** The message in flight, if one is; a rollback abandons it (it is then bound to be refused). */
  #flight: { id: string; batch: PendingAppend<E>[]; settle(streamSeq: number): void } | undefined;
  #sent = 0;
  #refusing: StoreRetryError | undefined;
  #onRefused: (refusal: Refusal) => StoreRetryError = (r) => new StoreRetryError(r.kind, r.detail, Promise.resolve());
  #onStored: (streamSeq: number, events: readonly E[]) => void = () => undefined;
  #clockEcho: (now: number) => string | undefined = () => undefined;
  readonly #stats: StoreStats = { appends: 0, fsyncs: 0, bytes: 0 };
  /** The stream seq this plane's decisions rest on: every message up to it is in its state. */
  base = 0;
  /** The stream seq of this plane's last acknowledged message, and its last event's seq. */
  lastAcked = 0;
  lastAckedEventSeq = 0;
  #snapshotSchema: z.ZodType<{ format: number; streamSeq: number; eventSeq: number; snapshot: S }>;

  constructor(options: NatsStoreOptions<S, E>) {
    this.#options = options;
    this.names = fleetNames(options.fleet);
    this.#snapshotSchema = z.object({ format: z.literal(STREAM_FORMAT), streamSeq: z.number().int().min(0), eventSeq: z.number().int().min(0), snapshot: options.snapshotSchema });
  }

  get stats(): Readonly<StoreStats> {
    return this.#stats;
  }

  get connection(): NatsConnection {
    if (!this.#nc) throw new Error('the NATS store is not open');
    return this.#nc;
  }

  /** Gives the clock echo header of a message stamped `now` (none when it returns undefined). */
  set clockEcho(echo: (now: number) => string | undefined) {
    this.#clockEcho = echo;
  }

  /** Called with each refusal; rolls the plane back (calling `refuse`) and returns the error refused appends get. */
  set onRefused(handler: (refusal: Refusal) => StoreRetryError) {
    this.#onRefused = handler;
  }

  /** Called when a message of this plane's is known stored (acknowledged, or met in the stream), with a copy of its events. */
  set onStored(handler: (streamSeq: number, events: readonly E[]) => void) {
    this.#onStored = handler;
  }

  /**
   * Connects, finds or creates the stream and the snapshot bucket, and replays. Planes that boot
   * with their cluster wait for it (and for each other's creation of the stream) within the
   * start-up budget, saying so in the log; past it, the error names the servers and what to check.
   */
  async open(): Promise<Recovered<S, E>> {
    const { servers } = this.#options;
    const budget = new StartBudget(this.#options.startTimeoutSeconds ?? DEFAULT_START_TIMEOUT_S, this.#options.log ?? (() => undefined));
    const nc = await connectNats(servers, this.#options.credsFile, `fleet plane ${this.#options.planeId}`, budget);
    try {
      this.#nc = nc;
      this.#js = jetstream(nc, { timeout: PUBLISH_TIMEOUT_MS });
      this.#jsReader = jetstream(nc, { timeout: CONSUMER_CREATE_TIMEOUT_MS });
      return await budget.retry(
        `JetStream at ${servers.join(',')}`,
        async () => {
          this.#jsm = await jetstreamManager(nc, { timeout: 5_000 });
          const info = await ensureStream(this.#jsm, this.names, this.#options.planeVersion, nc.info?.cluster !== undefined, () => budget.elapsedSeconds >= Math.min(REPLICA_GRACE_S, budget.seconds / 2));
          this.#snapshots = await new Objm(nc).create(this.names.snapshotBucket, { replicas: info.config.num_replicas, storage: info.config.storage });
          const found = await this.#readSnapshot();
          const last = info.state.last_seq;
          const tail: E[] = [];
          for await (const message of this.messages((found?.streamSeq ?? 0) + 1, last)) tail.push(...message.events);
          this.base = last;
          return { snapshot: found?.snapshot ?? null, snapshotSeq: found?.eventSeq ?? 0, tail };
        },
        (last) =>
          new NatsStartError(
            `JetStream at ${servers.join(',')} did not answer within ${budget.seconds} s (${last.message}): check that the NATS servers run with JetStream enabled, that a quorum of them (2 of 3) is up and that they reach each other on their cluster routes; FLEET_NATS_START_TIMEOUT gives start-up longer`,
          ),
      );
    } catch (error) {
      await nc.close().catch(() => undefined);
      throw error;
    }
  }

  append(events: readonly E[]): Promise<void> {
    if (this.#refusing) return Promise.reject(this.#refusing);
    this.#stats.appends++;
    return new Promise((resolve, reject) => {
      this.#queue.push({ events, resolve, reject });
      this.#pump();
    });
  }

  /** Refuses what is queued, and every append until `resume`: the plane is being rolled back. */
  refuse(error: StoreRetryError): void {
    this.#refusing = error;
    for (const pending of this.#queue.splice(0)) pending.reject(error);
  }

  /** The plane's state rests on stream seq `base` again: appends are taken. */
  resume(base: number): void {
    // A message still in flight was decided on the state just dropped: its refusal is due and changes nothing now.
    const abandoned = this.#flight;
    this.#flight = undefined;
    for (const pending of abandoned?.batch ?? []) pending.reject(this.#refusing!);
    this.base = base;
    this.#refusing = undefined;
    this.#pump();
  }

  /** Snapshots are written by the replica that applies the stream (`writeSnapshot`), never from speculative state. */
  compact(): Promise<void> {
    return Promise.resolve();
  }

  async writeSnapshot(snapshot: S, eventSeq: number, streamSeq: number): Promise<void> {
    const body = JSON.stringify({ format: STREAM_FORMAT, streamSeq, eventSeq, snapshot });
    await this.#snapshots!.putBlob({ name: SNAPSHOT_OBJECT }, new TextEncoder().encode(body));
  }

  /** The log from `fromSeq`, read from the stream; a stream out of reach is a retryable refusal (STORE_UNAVAILABLE), never an internal error. */
  async *history(fromSeq = 1): AsyncIterable<E> {
    let last: number;
    try {
      last = (await this.#jsm!.streams.info(this.names.stream)).state.last_seq;
    } catch (error) {
      throw new StoreRetryError('unavailable', `stream ${this.names.stream} does not answer (${(error as Error).message})`, Promise.resolve());
    }
    for await (const message of this.messages(1, last)) {
      for (const event of message.events) if (event.seq >= fromSeq) yield event;
    }
  }

  /**
   * The stream's messages from `from` to `to` (inclusive) in order, then done. A read whose
   * consumer fails (its node died, the connection moved) goes on from the next message on a new
   * one, for a bounded time; then it is refused as retryable.
   */
  async *messages(from: number, to: number): AsyncIterable<LogMessage<E>> {
    let next = from;
    const deadline = Date.now() + READ_RESUME_BOUND_MS;
    while (next <= to) {
      try {
        const consumer = await this.#jsReader!.consumers.get(this.names.stream, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: next });
        const stream = await consumer.consume({ expires: PULL_EXPIRES_MS });
        try {
          for await (const raw of stream) {
            const message = this.#decode(raw);
            next = raw.seq + 1;
            yield message;
            if (raw.seq >= to) return;
          }
        } finally {
          await stream.close();
        }
      } catch (error) {
        if (error instanceof StoreCorruptError) throw error;
        if (Date.now() > deadline) throw new StoreRetryError('unavailable', `reading stream ${this.names.stream} at message ${next} failed (${(error as Error).message})`, Promise.resolve());
      }
    }
  }

  /**
   * Every message after `from` as it is stored, until `stop` is called. The consumer re-creates
   * itself when its heartbeats stop; `ended` is called if it gives up all the same, so the caller
   * follows again from where it is.
   */
  async follow(from: number, onMessage: (message: LogMessage<E>) => void, ended: (error: Error | undefined) => void): Promise<() => Promise<void>> {
    const consumer = await this.#jsReader!.consumers.get(this.names.stream, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: from + 1 });
    const stream = await consumer.consume({ expires: PULL_EXPIRES_MS });
    let stopped = false;
    void (async () => {
      try {
        for await (const raw of stream) onMessage(this.#decode(raw));
        if (!stopped) ended(undefined);
      } catch (error) {
        if (error instanceof StoreCorruptError) throw error;
        if (!stopped) ended(error as Error);
      }
    })();
    return async () => {
      stopped = true;
      await stream.close();
    };
  }

  /** Whether a quorum answers for the stream now; its last seq if so. */
  async probe(): Promise<number | undefined> {
    try {
      return (await this.#jsm!.streams.info(this.names.stream)).state.last_seq;
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    await this.#nc?.drain().catch(() => undefined);
  }

  #pump(): void {
    if (this.#flight || this.#queue.length === 0 || this.#refusing) return;
    const batch = this.#queue.splice(0);
    const events = batch.flatMap((pending) => pending.events);
    const data = JSON.stringify(events);
    const h = headers();
    h.set(PLANE_HEADER, this.#options.planeId);
    const now = this.#options.now();
    h.set(CLOCK_HEADER, String(now));
    const echo = this.#clockEcho(now);
    if (echo !== undefined) h.set(CLOCK_ECHO_HEADER, echo);
    const flight = {
      id: `${this.#options.planeId}-${++this.#sent}`,
      batch,
      settle: (seq: number) => {
        if (this.#flight !== flight) return; // settled already (by the stream or the ack), or abandoned
        this.#flight = undefined;
        this.#stats.bytes += data.length;
        this.base = Math.max(this.base, seq);
        this.lastAcked = seq;
        this.lastAckedEventSeq = events[events.length - 1]!.seq;
        this.#onStored(seq, JSON.parse(data) as E[]);
        for (const pending of batch) pending.resolve();
        this.#mirror(events);
        this.#pump();
      },
    };
    this.#flight = flight;
    this.#js!.publish(this.names.logSubject, data, { expect: { lastSequence: this.base }, msgID: flight.id, headers: h, timeout: PUBLISH_TIMEOUT_MS }).then(
      (ack) => flight.settle(ack.seq),
      (error: Error) => {
        if (this.#flight !== flight) return;
        this.#flight = undefined;
        // The handler rolls the plane back, refusing what is queued (and may be done already).
        const refusal = this.#refusing ?? this.#onRefused(refusalOf(error));
        for (const pending of batch) pending.reject(refusal);
      },
    );
  }

  /** The id of the message in flight, if one is. */
  get inFlightId(): string | undefined {
    return this.#flight?.id;
  }

  /** The follower met the message in flight in the stream: it is stored, whatever its ack says. */
  storedInFlight(id: string | undefined, streamSeq: number): void {
    if (id !== undefined && this.#flight?.id === id) this.#flight.settle(streamSeq);
  }

  /** Watchers see each event on `fleet.<name>.events.<type>`; best effort, outside the stream. */
  #mirror(events: readonly E[]): void {
    for (const event of events) this.#nc!.publish(`${this.names.eventsPrefix}.${event.type}`, JSON.stringify(event));
  }

  async #readSnapshot(): Promise<{ streamSeq: number; eventSeq: number; snapshot: S } | undefined> {
    const blob = await this.#snapshots!.getBlob(SNAPSHOT_OBJECT);
    if (blob === null) return undefined;
    const where = `object store ${this.names.snapshotBucket}, object ${SNAPSHOT_OBJECT}`;
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(blob));
    } catch (error) {
      throw new StoreCorruptError(where, `not JSON (${(error as Error).message})`);
    }
    const parsed = this.#snapshotSchema.safeParse(json);
    if (!parsed.success) throw new StoreCorruptError(where, `not a snapshot of stream format ${STREAM_FORMAT}: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  #decode(raw: JsMsg): LogMessage<E> {
    const where = `stream ${this.names.stream}, message ${raw.seq}`;
    let json: unknown;
    try {
      json = raw.json();
    } catch (error) {
      throw new StoreCorruptError(where, `not JSON (${(error as Error).message})`);
    }
    const parsed = z.array(this.#options.eventSchema).safeParse(json);
    if (!parsed.success) throw new StoreCorruptError(where, `not a batch of events: ${z.prettifyError(parsed.error)}`);
    return {
      streamSeq: raw.seq,
      plane: raw.headers?.get(PLANE_HEADER) ?? '',
      id: raw.headers?.get('Nats-Msg-Id') || undefined,
      planeClock: Number(raw.headers?.get(CLOCK_HEADER) ?? Number.NaN),
      clockEcho: raw.headers?.get(CLOCK_ECHO_HEADER) || undefined,
      events: parsed.data,
    };
  }
}

function refusalOf(error: Error): Refusal {
  if (error instanceof JetStreamApiError && error.code === WRONG_LAST_SEQUENCE) {
    const head = /wrong last sequence: (\d+)/.exec(error.message);
    return { kind: 'superseded', detail: 'another plane decided first', ...(head && { head: Number(head[1]) }) };
  }
  return { kind: 'unavailable', detail: error.message };
}
