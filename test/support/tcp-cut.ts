import { createServer, connect, type Socket } from 'node:net';

/**
 * A loopback TCP relay to `target` that a test can cut (every connection dropped, new ones refused)
 * and restore: a network partition for one client. Given a delay, it is also a slow link: every
 * byte reaches the other side that long after it was sent.
 */
export interface TcpCut {
  port: number;
  /** Keeps forwarding what the client sends but holds back every reply (until `cut` drops them): a request that arrives whose answer never does. */
  holdReplies(): void;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** How long the relay holds what goes each way (ms): to the target, and back to the client. */
export interface LinkDelay {
  toTargetMs: number;
  toClientMs: number;
}

/** Sends on what `from` reads to `to`, `delayMs` later; in order, as timers of one delay fire in the order they were set. */
function forward(from: Socket, to: Socket, delayMs: number): void {
  if (delayMs === 0) from.pipe(to);
  else from.on('data', (chunk: Buffer) => setTimeout(() => to.write(chunk), delayMs));
}

export async function startTcpCut(targetPort: number, delay: LinkDelay = { toTargetMs: 0, toClientMs: 0 }): Promise<TcpCut> {
  const sockets = new Set<Socket>();
  const upstreams = new Map<Socket, Socket>();
  let open = true;
  const server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    upstreams.set(upstream, client);
    upstream.on('close', () => upstreams.delete(upstream));
    forward(client, upstream, delay.toTargetMs);
    forward(upstream, client, delay.toClientMs);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: (server.address() as { port: number }).port,
    holdReplies() {
      for (const [upstream, client] of upstreams) {
        upstream.unpipe(client);
        upstream.pause();
      }
    },
    cut() {
      open = false;
      dropAll();
    },
    restore() {
      open = true;
    },
    close() {
      dropAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
