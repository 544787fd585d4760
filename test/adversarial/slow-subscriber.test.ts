// DESIGN §12: an event subscriber that falls behind is not buffered for without bound: it gets a
// gap notice with the sequence to resume from, and resuming from it misses nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WebSocket } from 'ws';
import { EVENT_NOTIFICATION, eventNotificationSchema, EVENTS_GAP_NOTIFICATION, eventsGapNotificationSchema } from '../../contracts/index.js';
import { NOTIFICATION_BACKLOG_BYTES } from '../../server/transport/flow-control.js';
import { removeHome, startPlaneProcess } from '../support/plane-process.js';
import { SeededRandom, testSeed } from '../support/seeded-random.js';
import { assertResponsive } from '../support/responsive.js';
import { within } from '../support/within.js';

const seed = testSeed();
const replay = `seed ${seed} (rerun: FLEET_TEST_SEED=${seed})`;
const MEMO_BYTES = 4096;
/** Events enough to fill loopback's kernel buffers (a few MB) and the plane's backlog limit several times over. */
const EVENT_BYTES = 12 * 2 ** 20;
const WRITES_IN_FLIGHT = 8;

/** A subscriber on a raw socket, so that it can stop reading. */
class Subscriber {
  readonly seqs: number[] = [];
  private readonly replies = new Map<number, (result: { seq: number }) => void>();
  private gapSeen: ((fromSeq: number) => void) | undefined;
  private reached: { seq: number; resolve(): void } | undefined;
  private nextId = 1;

  constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { id?: number; method?: string; params?: unknown; result?: { seq: number } };
      if (frame.method === EVENT_NOTIFICATION) {
        this.seqs.push(eventNotificationSchema.parse(frame.params).event.seq);
        if (this.reached && this.seqs.at(-1)! >= this.reached.seq) this.reached.resolve();
      }
      else if (frame.method === EVENTS_GAP_NOTIFICATION) this.gapSeen?.(eventsGapNotificationSchema.parse(frame.params).fromSeq);
      else if (frame.id !== undefined) this.replies.get(frame.id)?.(frame.result!);
    });
  }

  static async open(port: number, token: string): Promise<Subscriber> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/`, { headers: { authorization: `Bearer ${token}` } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new Subscriber(socket);
  }

  subscribe(fromSeq?: number): Promise<{ seq: number }> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'fleet_events_subscribe', params: fromSeq === undefined ? {} : { fromSeq } }));
    return new Promise((resolve) => this.replies.set(id, resolve));
  }

  gap(): Promise<number> {
    return new Promise((resolve) => (this.gapSeen = resolve));
  }

  /** Resolves once the event `seq` has arrived. */
  received(seq: number): Promise<void> {
    if (this.seqs.at(-1)! >= seq) return Promise.resolve();
    return new Promise((resolve) => (this.reached = { seq, resolve }));
  }

  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  close(): void {
    this.socket.close();
  }
}

test(`a subscriber that stops reading gets a gap notice with the seq to resume from, and resumes without a hole (${replay})`, async () => {
  console.log(`slow subscriber: ${replay}`);
  const random = new SeededRandom(seed);
  const plane = await startPlaneProcess();
  const writer = await plane.connect('writer');
  const subscriber = await Subscriber.open(plane.port, plane.token);
  try {
    await writer.call('fleet_agent_join', { callsign: 'WRITER', runtime: 'script' });
    const { seq: startSeq } = await subscriber.subscribe();
    const gap = subscriber.gap();
    subscriber.pause();

    // Far more events than the backlog limit, while the subscriber reads nothing.
    const writes = Math.ceil(EVENT_BYTES / MEMO_BYTES);
    const latencies: number[] = [];
    let next = 0;
    const write = async (): Promise<void> => {
      while (next < writes) {
        const key = `notes/m${next++ % 100}`; // rewrites: a writer may hold only so many memos
        const value = Array.from({ length: MEMO_BYTES / 8 }, () => random.int(0, 0xfffffff).toString(16).padStart(7, '0')).join(' ');
        const start = performance.now();
        await writer.call('fleet_agent_memo_write', { key, value });
        latencies.push(performance.now() - start);
      }
    };
    await Promise.all(Array.from({ length: WRITES_IN_FLIGHT }, write));
    const { plane: after } = await writer.call('fleet_status', {});
    assert.ok((after.seq - startSeq) * MEMO_BYTES > 4 * NOTIFICATION_BACKLOG_BYTES);

    // Reading again, the subscriber finds an unbroken run of events, then the gap notice naming the last of them.
    subscriber.resume();
    const fromSeq = await within(gap, 15_000, `a gap notice (${replay})`);
    assert.ok(fromSeq < after.seq, `the gap came at seq ${fromSeq}, after every event (${after.seq}): the subscriber never fell behind`);
    assert.deepEqual(subscriber.seqs, range(startSeq + 1, fromSeq), `events before the gap notice (${replay})`);

    // Resuming from it replays what was missed; nothing is lost or repeated.
    await subscriber.subscribe(fromSeq);
    await writer.call('fleet_agent_memo_write', { key: 'notes/after', value: 'after the gap' });
    const { plane: end } = await writer.call('fleet_status', {});
    await within(subscriber.received(end.seq), 15_000, `every event up to ${end.seq} (${replay})`);
    assert.deepEqual(subscriber.seqs, range(startSeq + 1, end.seq), `events across the gap (${replay})`);

    assertResponsive(latencies, replay);
  } finally {
    subscriber.close();
    writer.close();
    await plane.stop();
    removeHome(plane.home);
  }
});

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}
