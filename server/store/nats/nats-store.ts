// The store of a fleet that spans machines (DESIGN §13): the event log is a replicated JetStream
// stream, the shared total order of every plane's mutations; snapshots sit in an object store.
import { DeliverPolicy, JetStreamApiError, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { headers, type NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { StoreCorruptError, StoreRetryError, type Recovered, type Store, type StoreStats } from '../store.js';
import { ensureStream, STREAM_FORMAT } from './fleet-stream.js';
import { connectNats } from './nats-connect.js';
import { fleetNames, type FleetNames } from './nats-names.js';

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
}

/** One message of the stream: one decided command batch of one plane. */
export interface LogMessage<E> {
  streamSeq: number;
  plane: string;
  /** The message id it was published with (unique per plane and message). */
  id: string | undefined;
  /** The publishing plane's clock at publish, and the stream leader's at store (epoch ms). */
  planeClock: number;
  storedAt: number;
  events: E[];
}

/** Why a refused append was refused: its kind, a sentence, and the stream's last seq if known. */
export type Refusal = { kind: StoreRetryError['kind']; detail: string; head?: number };

const PLANE_HEADER = 'Fleet-Plane';
const CLOCK_HEADER = 'Fleet-Clock';
const SNAPSHOT_OBJECT = 'latest';
/** A publish that no quorum acknowledges within this is taken as the store being out of reach. */
const PUBLISH_TIMEOUT_MS = 3_000;
const CONSUMER_TIMEOUT_MS = 15_000;
const WRONG_LAST_SEQUENCE = 10071;

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
  /** For consumers: creating one may wait out a leader election, longer than a publish may. */
  #jsPatient: JetStreamClient | undefined;
  #jsm: JetStreamManager | undefined;
  #snapshots: ObjectStore | undefined;
  #queue: PendingAppend<E>[] = [];
  /** The message in flight, if one is; a rollback abandons it (it is then bound to be refused). */
  #flight: { id: string; batch: PendingAppend<E>[]; settle(streamSeq: number): void } | undefined;
  #sent = 0;
  #refusing: StoreRetryError | undefined;
  #onRefused: (refusal: Refusal) => StoreRetryError = (r) => new StoreRetryError(r.kind, r.detail, Promise.resolve());
  #onStored: (streamSeq: number, events: readonly E[]) => void = () => undefined;
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

  /** Called with each refusal; rolls the plane back (calling `refuse`) and returns the error refused appends get. */
  set onRefused(handler: (refusal: Refusal) => StoreRetryError) {
    this.#onRefused = handler;
  }

  /** Called when a message of this plane's is known stored (acknowledged, or met in the stream), with a copy of its events. */
  set onStored(handler: (streamSeq: number, events: readonly E[]) => void) {
    this.#onStored = handler;
  }

  async open(): Promise<Recovered<S, E>> {
    const nc = await connectNats(this.#options.servers, this.#options.credsFile, `fleet plane ${this.#options.planeId}`);
    try {
      this.#nc = nc;
      this.#jsm = await jetstreamManager(nc, { timeout: 5_000 });
      this.#js = jetstream(nc, { timeout: PUBLISH_TIMEOUT_MS });
      this.#jsPatient = jetstream(nc, { timeout: CONSUMER_TIMEOUT_MS });
      const info = await ensureStream(this.#jsm, this.names, this.#options.planeVersion, nc.info?.cluster !== undefined);
      this.#snapshots = await new Objm(nc).create(this.names.snapshotBucket, { replicas: info.config.num_replicas, storage: info.config.storage });
      const found = await this.#readSnapshot();
      const last = info.state.last_seq;
      const tail: E[] = [];
      for await (const message of this.messages((found?.streamSeq ?? 0) + 1, last)) tail.push(...message.events);
      this.base = last;
      return { snapshot: found?.snapshot ?? null, snapshotSeq: found?.eventSeq ?? 0, tail };
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

  async *history(fromSeq = 1): AsyncIterable<E> {
    const last = (await this.#jsm!.streams.info(this.names.stream)).state.last_seq;
    for await (const message of this.messages(1, last)) {
      for (const event of message.events) if (event.seq >= fromSeq) yield event;
    }
  }

  /** The stream's messages from `from` to `to` (inclusive) in order, then done. */
  async *messages(from: number, to: number): AsyncIterable<LogMessage<E>> {
    if (to < from) return;
    const consumer = await this.#jsPatient!.consumers.get(this.names.stream, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: from });
    const stream = await consumer.consume();
    try {
      for await (const raw of stream) {
        yield this.#decode(raw);
        if (raw.seq >= to) break;
      }
    } finally {
      await stream.close();
    }
  }

  /** Every message after `from` as it is stored, until `stop` is called; reconnects by itself. */
  async follow(from: number, onMessage: (message: LogMessage<E>) => void): Promise<() => Promise<void>> {
    const consumer = await this.#jsPatient!.consumers.get(this.names.stream, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: from + 1 });
    const stream = await consumer.consume();
    void (async () => {
      for await (const raw of stream) onMessage(this.#decode(raw));
    })();
    return async () => void (await stream.close());
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
    h.set(CLOCK_HEADER, String(this.#options.now()));
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
      storedAt: Number(raw.info.timestampNanos) / 1e6,
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
