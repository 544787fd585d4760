// Child-process entry: the floors' other end. A bare `ws` server on loopback (the same library and
// socket options as the plane's endpoint) that answers each frame with a prepared reply of the
// plane's reply size, without parsing it. In a durable mode it first appends a record of the size
// of the plane's claim.granted event line to a file in the plane's temp folder and fdatasyncs it:
// - 'durable': writeSync + fdatasyncSync, the least any server can do for one durable round trip
//   (this is the durable floor);
// - 'durable-async': FileHandle.writeFile + datasync, the calls the plane's event log makes, which
//   keep the event loop free during the sync at the price of two thread-pool hand-offs.
// In 'echo' mode it sends each frame back as it came: the throughput floor, where many agent
// processes at once measure what their own round trips cost with no coordination behind them.
import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';

export type PeerMode = 'rtt' | 'echo' | 'durable' | 'durable-async';
export type PeerRequest = { type: 'mode'; mode: PeerMode; reply: string; recordBytes: number; dir: string } | { type: 'exit' };
export type PeerReply = { type: 'listening'; port: number } | { type: 'ready' };

let mode: PeerMode = 'rtt';
let reply = '{}';
let record = Buffer.alloc(0);
let fd: number | undefined;
let handle: FileHandle | undefined;

const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, maxPayload: 1024 * 1024 });
server.on('connection', (socket) => {
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (mode === 'echo') {
      socket.send(data, { binary: isBinary });
    } else if (mode === 'durable') {
      writeSync(fd!, record);
      fdatasyncSync(fd!);
      socket.send(reply);
    } else if (mode === 'durable-async') {
      const file = handle!;
      file
        .writeFile(record)
        .then(() => file.datasync())
        .then(() => socket.send(reply), (error: Error) => socket.close(1011, error.message));
    } else {
      socket.send(reply);
    }
  });
});

server.on('listening', () => {
  const address = server.address();
  if (typeof address === 'object' && address) process.send?.({ type: 'listening', port: address.port } satisfies PeerReply);
});

async function closeFiles(): Promise<void> {
  if (fd !== undefined) closeSync(fd);
  fd = undefined;
  await handle?.close();
  handle = undefined;
}

process.once('disconnect', () => process.exit(0));

process.on('message', (message: PeerRequest) => {
  void (async () => {
    await closeFiles();
    if (message.type === 'exit') {
      server.close();
      process.exit(0);
    }
    mode = message.mode;
    reply = message.reply;
    record = Buffer.alloc(message.recordBytes, 'x');
    if (record.length > 0) record[record.length - 1] = 0x0a;
    const path = join(message.dir, 'durable-floor.log');
    if (mode === 'durable') fd = openSync(path, 'a', 0o600);
    if (mode === 'durable-async') handle = await open(path, 'a', 0o600);
    process.send?.({ type: 'ready' } satisfies PeerReply);
  })();
});
