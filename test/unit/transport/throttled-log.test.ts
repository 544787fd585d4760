import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { ThrottledLog } from '../../../server/transport/throttled-log.js';

test('a flood of one kind is logged once at once, then summed up in one line when its window ends', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const lines: string[] = [];
    const log = new ThrottledLog((line) => lines.push(line));
    for (let i = 0; i < 500; i++) log.note('refused a connection', `: #${i}`);
    log.note('dropped a client');
    assert.deepEqual(lines, ['refused a connection: #0', 'dropped a client']);
    mock.timers.tick(10_000);
    assert.deepEqual(lines.slice(2), ['refused a connection (499 more times in the last 10 s)']);
    log.note('refused a connection', ': again');
    assert.equal(lines.at(-1), 'refused a connection: again');
  } finally {
    mock.timers.reset();
  }
});
