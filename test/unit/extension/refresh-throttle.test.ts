// The Work view's refresh throttle (extension/src/views/refresh-throttle.ts), on node's mock clock:
// a refresh asked for while VS Code reads the tree waits until its reads have been quiet for the
// interval (one handed on in the middle of a read broke VS Code's tree: rows under the wrong
// parent, drawn over each other, "Data tree node not found"); bursts still go as one.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { RefreshThrottle } from '../../../extension/src/views/refresh-throttle.js';

const INTERVAL = 1000;
let fired: (string[] | undefined)[];
let throttle: RefreshThrottle<string>;

beforeEach(() => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
  fired = [];
  throttle = new RefreshThrottle<string>((rows) => fired.push(rows), INTERVAL);
});
afterEach(() => {
  throttle.dispose();
  mock.timers.reset();
});

test('with no read going on, a whole refresh goes on the next turn and a burst of rows goes as one', () => {
  throttle.request(undefined);
  mock.timers.tick(0);
  assert.deepEqual(fired, [undefined]);
  throttle.request(['a']);
  throttle.request(['b', 'a']);
  mock.timers.tick(INTERVAL - 1);
  assert.deepEqual(fired, [undefined], 'rows wait for the interval after the last refresh');
  mock.timers.tick(1);
  assert.deepEqual(fired, [undefined, ['a', 'b']]);
});

test('a refresh asked for while VS Code reads waits until its reads have been quiet for the interval', () => {
  throttle.read();
  throttle.request(undefined);
  mock.timers.tick(600);
  throttle.read(); // the next level of the tree
  mock.timers.tick(600);
  assert.deepEqual(fired, [], 'nothing in the middle of the read');
  throttle.request(['a']);
  mock.timers.tick(399);
  assert.deepEqual(fired, []);
  mock.timers.tick(1);
  assert.deepEqual(fired, [undefined], 'the whole refresh, covering the rows asked for since');
});

test('rows asked for just before a read wait for it too', () => {
  throttle.request(['a']);
  throttle.read();
  mock.timers.tick(INTERVAL - 1);
  assert.deepEqual(fired, []);
  mock.timers.tick(1);
  assert.deepEqual(fired, [['a']]);
});
