// What clients say to a real plane over its Unix socket, seen from between them: the plane's socket
// is moved aside and a relay listens where it was, forwarding every byte both ways unchanged. It
// counts connections and reads each client's JSON-RPC requests (after the HTTP upgrade, client
// frames are masked, RFC 6455 §5.3), so a test can assert how many connections and questions a
// hook needed. Neither the plane nor the client knows it is there.
import { renameSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { parseFrame } from '../../server/hooks/lean/plane-call.js';

export interface PlaneWiretap {
  /** Connections accepted since the tap (or the last `reset`). */
  connections(): number;
  /** The JSON-RPC methods clients asked, in arrival order. */
  methods(): string[];
  reset(): void;
  /** Puts the plane's socket back where it was. */
  close(): Promise<void>;
}

export async function tapPlaneSocket(socketPath: string): Promise<PlaneWiretap> {
  const aside = `${socketPath}.tapped`;
  renameSync(socketPath, aside);
  let connections = 0;
  let methods: string[] = [];
  const open = new Set<Socket>();
  const server = createServer((client) => {
    connections++;
    const plane = connect(aside);
    for (const socket of [client, plane]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    const reader = requestReader((method) => methods.push(method));
    client.on('data', reader);
    client.pipe(plane).pipe(client);
    client.on('close', () => plane.destroy());
    plane.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
  return {
    connections: () => connections,
    methods: () => [...methods],
    reset() {
      connections = 0;
      methods = [];
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      try {
        unlinkSync(socketPath);
      } catch {
        // server.close removed it
      }
      renameSync(aside, socketPath);
    },
  };
}

/** Reads one client's bytes: the upgrade request, then masked frames; calls `onRequest` with each request's method. */
function requestReader(onRequest: (method: string) => void): (chunk: Buffer) => void {
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (!upgraded) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      upgraded = true;
      buffer = buffer.subarray(end + 4);
    }
    for (;;) {
      const frame = parseFrame(buffer);
      if (!frame) return;
      buffer = buffer.subarray(frame.size);
      if (frame.opcode !== 0x1) continue; // the hooks' and CLI's requests are single text frames
      const message = JSON.parse(frame.payload.toString('utf8')) as { method?: unknown };
      if (typeof message.method === 'string') onRequest(message.method);
    }
  };
}
