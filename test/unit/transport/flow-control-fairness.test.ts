// DESIGN §12: one connection's pipelined requests never keep another connection's request waiting
// behind all of them. Real sockets, in process: the requests are answered at once, so without the
// per-turn bound a connection with frames queued would run them all before the plane read anyone else.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { WebSocket, WebSocketServer } from 'ws';
import { FlowControl, MAX_STARTED_PER_TURN } from '../../../server/transport/flow-control.js';

const PIPELINED = 200;

const opened = (socket: WebSocket) => new Promise<void>((resolve, reject) => socket.once('open', resolve).once('error', reject));

test(`a connection that pipelines ${PIPELINED} requests delays another connection's single request by at most ${2 * MAX_STARTED_PER_TURN} of them`, async () => {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const flooder = new WebSocket(url);
  const bystander = new WebSocket(url);
  const served: string[] = [];
  server.on('connection', (socket) => {
    new FlowControl(
      socket,
      (frame) => {
        served.push(frame);
        // The other client's request reaches the plane while the pipeline is being served.
        if (frame === 'flood 0') bystander.send('bystander');
        return Promise.resolve(`done ${frame}`);
      },
      () => assert.fail('no client here stops reading'),
    );
  });
  try {
    await Promise.all([opened(flooder), opened(bystander)]);
    const answered = new Promise<void>((resolve) => bystander.once('message', () => resolve()));
    const allFloodAnswered = new Promise<void>((resolve) => {
      let replies = 0;
      flooder.on('message', () => ++replies === PIPELINED && resolve());
    });
    for (let i = 0; i < PIPELINED; i++) flooder.send(`flood ${i}`);
    await Promise.all([answered, allFloodAnswered]);

    const before = served.indexOf('bystander');
    console.log(`  the bystander's request was served after ${before} of the ${PIPELINED} pipelined ones`);
    // It arrives while the first turn's requests run: that turn's, and at most the next turn's (which
    // may start before the poll phase that reads it), go first.
    assert.ok(before <= 2 * MAX_STARTED_PER_TURN, `the other connection's request waited behind ${before} pipelined requests`);
    // One connection's own requests are still started in the order it sent them.
    assert.deepEqual(
      served.filter((frame) => frame !== 'bystander'),
      Array.from({ length: PIPELINED }, (_, i) => `flood ${i}`),
    );
  } finally {
    flooder.terminate();
    bystander.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});
