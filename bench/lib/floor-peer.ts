// Child-process entry: the floors' other end. A bare `ws` server on loopback (the same library and
// socket options as the plane's endpoint) that answers each frame with a prepared reply of the
// plane's reply size, without parsing it. In a durable mode it first makes a record of the size of
// the plane's claim.granted event line durable, in a file in the plane's temp folder:
// - 'durable': appended, then fdatasynced: the least any server can do for one durable round trip
//   (this is the durable floor);
// - 'durable-reserved': written into zeros reserved ahead of it, then fdatasynced, as the plane's
//   event log writes (see record-writer.ts).
// In 'echo' mode it sends each frame back as it came: the throughput floor, where many agent
// processes at once measure what their own round trips cost with no coordination behind them.
// It listens on loopback TCP (the latency floors, as DESIGN §7 defines them) and on a Unix socket
// (the throughput floor, reached the way the plane's agents reach the plane).
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { RecordWriter } from './record-writer.js';

export type PeerMode = 'rtt' | 'echo' | 'durable' | 'durable-reserved';
export type PeerRequest = { type: 'mode'; mode: PeerMode; reply: string; recordBytes: number; dir: string } | { type: 'exit' };
export type PeerReply = { type: 'listening'; port: number; socket: string } | { type: 'ready' };

let mode: PeerMode = 'rtt';
let reply = '{}';
let record = Buffer.alloc(0);
let writer: RecordWriter | undefined;

function serve(socket: WebSocket): void {
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (mode === 'echo') {
      socket.send(data, { binary: isBinary });
      return;
    }
    writer?.write(record);
    socket.send(reply);
  });
}

const options = { perMessageDeflate: false, maxPayload: 1024 * 1024 };
const server = new WebSocketServer({ host: '127.0.0.1', port: 0, ...options });
server.on('connection', serve);
const socketPath = join(tmpdir(), `fleet-bench-peer-${process.pid}.sock`);
const unix = createServer();
new WebSocketServer({ server: unix, ...options }).on('connection', serve);
process.once('exit', () => rmSync(socketPath, { force: true }));

await Promise.all([new Promise((resolve) => server.once('listening', resolve)), new Promise((resolve) => unix.listen(socketPath, () => resolve(undefined)))]);
process.send?.({ type: 'listening', port: (server.address() as { port: number }).port, socket: socketPath } satisfies PeerReply);

process.once('disconnect', () => process.exit(0));

process.on('message', (message: PeerRequest) => {
  writer?.close();
  writer = undefined;
  if (message.type === 'exit') {
    server.close();
    process.exit(0);
  }
  mode = message.mode;
  reply = message.reply;
  record = Buffer.alloc(message.recordBytes, 'x');
  if (record.length > 0) record[record.length - 1] = 0x0a;
  if (mode === 'durable') writer = RecordWriter.open(join(message.dir, 'durable-floor.log'), 'append');
  if (mode === 'durable-reserved') writer = RecordWriter.open(join(message.dir, 'durable-floor-reserved.log'), 'reserved');
  process.send?.({ type: 'ready' } satisfies PeerReply);
});
