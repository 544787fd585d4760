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

/** Lets the event loop go round once, past its check phase. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test('an idle log flushes at once; writes queued during a flush, or in the turn right after one, share the next', async () => {
  const { batches, pending, flush } = controlledFlush();
  const commit = new GroupCommit(flush);
  const first = commit.write(Buffer.from('a'));
  const rest = ['b', 'c', 'd'].map((letter) => commit.write(Buffer.from(letter)));
  assert.deepEqual(batches, ['a']);
  pending[0]!.resolve();
  await first;
  assert.deepEqual(batches, ['a', 'bcd']);
  pending[1]!.resolve();
  await Promise.all(rest);

  // Right after a flush, more requests of the same turn of the event loop are probably on their
  // way: writes wait for the end of the turn and share one flush.
  const late = [commit.write(Buffer.from('e')), commit.write(Buffer.from('f'))];
  assert.deepEqual(batches, ['a', 'bcd'], 'no flush in the turn of the last one');
  await nextTurn();
  assert.deepEqual(batches, ['a', 'bcd', 'ef']);
  pending[2]!.resolve();
  await Promise.all(late);

  // Once a turn has passed without a flush, the log is idle again and flushes at once.
  await nextTurn();
  const idle = commit.write(Buffer.from('g'));
  assert.deepEqual(batches, ['a', 'bcd', 'ef', 'g']);
  pending[3]!.resolve();
  await idle;
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
  pending[0]!.resolve();
  await new Promise((resolve) => setImmediate(resolve));
  pending[1]!.resolve();
  await new Promise((resolve) => setImmediate(resolve));
  pending[2]!.resolve();
  await Promise.all(done);
  assert.deepEqual(batches, ['a', 'b', 'c']);
  assert.deepEqual(order, ['task after a|b']);
});

test('a failed flush rejects its whole batch, the queue behind it, and every later call', async () => {
  const { pending, flush } = controlledFlush();
  const commit = new GroupCommit(flush);
  const first = commit.write(Buffer.from('a'));
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
