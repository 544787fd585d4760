import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GroupCommit } from '../../../server/store/group-commit.js';

/** A flush whose completion the test controls, recording what each batch contained. */
function controlledFlush() {
  const batches: string[] = [];
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const flush = (batch: Buffer) =>
    new Promise<void>((resolve, reject) => {
      batches.push(batch.toString());
      pending.push({ resolve, reject });
    });
  return { batches, pending, flush };
}

/** Lets the event loop go round once: what was queued in this turn is flushed by then. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test('writes queued in one turn share a flush, and writes queued during a flush go out together in the next one', async () => {
  const { batches, pending, flush } = controlledFlush();
  const commit = new GroupCommit(flush);
  const first = [commit.write(Buffer.from('a')), commit.write(Buffer.from('b'))];
  assert.deepEqual(batches, [], 'nothing is flushed before the turn ends');
  await nextTurn();
  assert.deepEqual(batches, ['ab']);
  const rest = ['c', 'd', 'e'].map((letter) => commit.write(Buffer.from(letter)));
  await nextTurn();
  assert.deepEqual(batches, ['ab'], 'one flush at a time');
  pending[0]!.resolve();
  await Promise.all(first);
  assert.deepEqual(batches, ['ab', 'cde']);
  pending[1]!.resolve();
  await Promise.all(rest);
});

test('a task runs alone, between the writes queued before and after it', async () => {
  const { batches, pending, flush } = controlledFlush();
  const commit = new GroupCommit(flush);
  const order: string[] = [];
  const done = [
    commit.write(Buffer.from('a')),
    commit.write(Buffer.from('b')),
    commit.run(async () => {
      order.push(`task after ${batches.join('|')}`);
    }),
    commit.write(Buffer.from('c')),
  ];
  await nextTurn();
  assert.deepEqual(order, [], 'the task waits until the writes before it are durable');
  pending[0]!.resolve();
  await nextTurn();
  pending[1]!.resolve();
  await Promise.all(done);
  assert.deepEqual(batches, ['ab', 'c']);
  assert.deepEqual(order, ['task after ab']);
});

test('a failed flush rejects its whole batch, the queue behind it, and every later call', async () => {
  const { pending, flush } = controlledFlush();
  const commit = new GroupCommit(flush);
  const first = commit.write(Buffer.from('a'));
  await nextTurn();
  const batched = [commit.write(Buffer.from('b')), commit.write(Buffer.from('c'))];
  pending[0]!.resolve();
  await first;
  const queuedBehind = commit.write(Buffer.from('d')); // waits while b+c are in flight
  pending[1]!.reject(new Error('EIO: disk on fire'));
  for (const waiter of batched) await assert.rejects(waiter, /event log write failed.*EIO: disk on fire/);
  await assert.rejects(queuedBehind, /event log write failed/);
  await assert.rejects(commit.write(Buffer.from('e')), /event log write failed/);
  await assert.rejects(commit.run(async () => undefined), /event log write failed/);
  assert.equal(pending.length, 2, 'nothing is flushed after a failure');
});
