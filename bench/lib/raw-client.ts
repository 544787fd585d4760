import { WebSocket } from 'ws';
import type { PlaneAddress } from '../../server/client/plane-client.js';
import { doorsOf } from '../../server/transport/unix-socket.js';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** A JSON-RPC error reply, kept apart from transport failures. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The benchmark's client of a JSON-RPC WebSocket: JSON.stringify out, JSON.parse in, match by id,
 * and nothing else. The plane's own PlaneClient also validates every result with zod; leaving
 * that out here measures the plane rather than the client. The floors use the same socket
 * options and the same stringify/parse on this side, so the ratios compare like with like.
 */
export class RawClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private onRawMessage: ((text: string) => void) | undefined;
  /** Bytes of the last request sent and of the last reply received (frame payloads). */
  lastRequestBytes = 0;
  lastReplyBytes = 0;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      this.lastReplyBytes = data.length;
      const text = data.toString();
      if (this.onRawMessage) {
        const handler = this.onRawMessage;
        this.onRawMessage = undefined;
        handler(text);
        return;
      }
      const frame = JSON.parse(text) as { id?: number; result?: unknown; error?: { code: number; message: string } };
      if (frame.id === undefined) return; // a notification
      const waiter = this.pending.get(frame.id);
      if (!waiter) return;
      this.pending.delete(frame.id);
      if (frame.error) waiter.reject(new RpcError(frame.error.code, frame.error.message));
      else waiter.resolve(frame.result);
    });
    socket.on('close', () => this.failAll(new Error('connection closed')));
    socket.on('error', (error) => this.failAll(error));
  }

  /** Connects through the door the plane's own clients prefer: `address.socket` when given, else TCP. */
  static async connect(address: PlaneAddress, token?: string): Promise<RawClient> {
    const { url, options } = doorsOf(address)[0]!;
    const socket = new WebSocket(url, {
      ...options,
      perMessageDeflate: false,
      ...(token !== undefined && { headers: { authorization: `Bearer ${token}` } }),
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.setMaxListeners(0);
    return new RawClient(socket);
  }

  /** Connects to a plane, says hello and joins as `callsign`. */
  static async agent(address: PlaneAddress, token: string, callsign: string, runtime = 'bench'): Promise<RawClient> {
    const client = await RawClient.connect(address, token);
    await client.call('fleet_plane_hello', { protocolVersion: 1, client: 'fleet-bench' });
    await client.call('fleet_agent_join', { callsign, runtime });
    return client;
  }

  call<T = unknown>(method: string, params: unknown): Promise<T> {
    const id = this.nextId++;
    const text = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    this.lastRequestBytes = Buffer.byteLength(text);
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.socket.send(text);
    });
  }

  /** The floors' exchange: send a prepared frame, parse whatever comes back next. */
  exchange(text: string): Promise<unknown> {
    return new Promise((resolve) => {
      this.onRawMessage = (reply) => resolve(JSON.parse(reply));
      this.socket.send(text);
    });
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }

  private failAll(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }
}
