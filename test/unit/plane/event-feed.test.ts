import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVENT_NOTIFICATION, EVENTS_GAP_NOTIFICATION, type FleetEvent } from '../../../contracts/index.js';
import { EventFeed } from '../../../server/plane/rpc/event-feed.js';
import { Journal } from '../../../server/plane/persistence/journal.js';
import { unjoinedCaller, type Session } from '../../../server/plane/rpc/session.js';

const event = (seq: number) => ({ seq, at: 0, type: 'agent.heartbeat' }) as unknown as FleetEvent;

/** A session whose client is behind exactly when the test says so. */
function fakeSession() {
  const sent: { method: string; params: unknown }[] = [];
  let behind = false;
  let drained: (() => void) | undefined;
  const session: Session = {
    caller: unjoinedCaller('plane'),
    credential: 'plane',
    closed: new AbortController().signal,
    notify: (method, params) => sent.push({ method, params }),
    notificationsBehind: () => behind,
    notificationsDrained: () => new Promise<void>((resolve) => (drained = resolve)),
  };
  return {
    session,
    sent,
    seqs: () => sent.filter((n) => n.method === EVENT_NOTIFICATION).map((n) => (n.params as { event: FleetEvent }).event.seq),
    fallBehind: () => (behind = true),
    catchUp: () => {
      behind = false;
      drained?.();
    },
  };
}

/** A journal over a store that acknowledges every append at once. */
function journalAt(seq: number) {
  const journal = new Journal({ append: () => Promise.resolve() }, seq, (error) => assert.fail(error));
  const commit = async (...seqs: number[]) => {
    for (const s of seqs) journal.record(event(s));
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { journal, commit };
}

test('a live subscriber that falls behind gets one gap notice naming the last event it was sent, then nothing more', async () => {
  const { journal, commit } = journalAt(10);
  const client = fakeSession();
  // What else the subscription holds (the store-health listener) ends with it, gap or unsubscribe alike, once.
  let endings = 0;
  const feed = new EventFeed(client.session, journal, () => (async function* () {})(), () => endings++);
  assert.equal(await feed.start(undefined), 10);
  await commit(11, 12);
  client.fallBehind();
  await commit(13);
  await commit(14);
  assert.deepEqual(client.seqs(), [11, 12]);
  const gaps = client.sent.filter((n) => n.method === EVENTS_GAP_NOTIFICATION);
  assert.equal(gaps.length, 1);
  assert.equal((gaps[0]!.params as { fromSeq: number }).fromSeq, 12);
  assert.equal(client.sent.at(-1), gaps[0]);
  assert.equal(endings, 1, 'the gap ended the whole subscription');
  feed.stop();
  assert.equal(endings, 1, 'a later unsubscribe ends nothing twice');
});

test('a replay waits for the client to catch up instead of piling events on it, then follows the live log without a hole', async () => {
  const { journal, commit } = journalAt(0);
  await commit(1, 2, 3, 4);
  const client = fakeSession();
  const history = (from: number) =>
    (async function* () {
      for (let seq = from; seq <= journal.lastDurableSeq; seq++) yield event(seq);
    })();
  const feed = new EventFeed(client.session, journal, history);
  client.fallBehind();
  const started = feed.start(1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(client.seqs(), [], 'nothing sent while the client is behind');
  await commit(5); // durable during the replay: read from the log, not held in memory
  client.catchUp();
  assert.equal(await started, 4);
  await commit(6);
  assert.deepEqual(client.seqs(), [2, 3, 4, 5, 6]);
});
