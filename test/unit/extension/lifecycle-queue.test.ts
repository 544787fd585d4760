// The language client's starts, stops and restarts take turns: one runs at a time in the order
// asked, a failed turn does not hold up the next, and asking again for what already waits its turn
// joins it (three fleet.home edits in a row are one restart after the one running).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LifecycleQueue } from '../../../extension/src/lifecycle-queue.js';

/** A step that records when it starts and ends, and ends when the test says so. */
function gatedStep(events: string[], name: string): { step: () => Promise<void>; finish: (error?: Error) => void; started: Promise<void> } {
  let finish!: (error?: Error) => void;
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const step = () => {
    events.push(`${name} starts`);
    markStarted();
    return new Promise<void>((resolve, reject) => (finish = (error) => (events.push(`${name} ends`), error ? reject(error) : resolve())));
  };
  return { step, finish: (error) => finish(error), started };
}

test('one turn at a time, in order; a failed turn does not hold up the next', async () => {
  const events: string[] = [];
  const queue = new LifecycleQueue<'start' | 'restart'>();
  const start = gatedStep(events, 'start');
  const restart = gatedStep(events, 'restart');
  const started = queue.run('start', start.step);
  const restarted = queue.run('restart', restart.step);
  await start.started;
  assert.deepEqual(events, ['start starts'], 'the restart waits for the start to finish');
  start.finish(new Error('the server did not start'));
  await assert.rejects(started, /did not start/, 'its caller hears about the failure');
  await restart.started;
  restart.finish();
  await restarted;
  await queue.settled();
  assert.deepEqual(events, ['start starts', 'start ends', 'restart starts', 'restart ends']);
});

test('restarts asked for while one waits its turn join it; one asked for mid-restart runs after it', async () => {
  const events: string[] = [];
  const queue = new LifecycleQueue<'restart'>();
  const first = gatedStep(events, 'first');
  const second = gatedStep(events, 'second');
  const running = queue.run('restart', first.step);
  await first.started;
  const waiting = queue.run('restart', second.step);
  const joined = queue.run('restart', () => Promise.reject(new Error('a joined restart must not run a step of its own')));
  assert.equal(joined, waiting, 'the third restart is the second one');
  first.finish();
  await second.started;
  second.finish();
  await Promise.all([running, waiting, joined]);
  assert.deepEqual(events, ['first starts', 'first ends', 'second starts', 'second ends']);
});
