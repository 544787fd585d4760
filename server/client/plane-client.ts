import { WebSocket } from 'ws';
import { doorsOf, type Door } from '../transport/unix-socket.js';
import type { RemotePlane } from './remote-plane.js';
import { PlaneCallError } from './plane-call-error.js';
import { errorNameForCode, MAX_FRAME_BYTES, methods, PROTOCOL_VERSION, type MethodName, type Params, type Result } from '../../contracts/index.js';

export { PlaneCallError };

/** Where a plane listens, as plane.json announces it. */
export interface PlaneAddress {
  port: number;
  socket?: string;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * A typed client of the plane's WebSocket endpoint: every call is checked against the method
 * table on the way out and its result validated on the way in (the plane is a trust boundary too).
 */
export class PlaneClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly notificationHandlers = new Set<(method: string, params: unknown) => void>();
  private closedError: Error | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.receive(data.toString()));
    socket.on('close', (code: number, reason: Buffer) => this.failAll(new Error(`the plane closed the connection (${closeCause(code, reason.toString())})`)));
    socket.on('error', (error) => this.failAll(error));
  }

  /**
   * Connects to the plane at `address`: through its Unix socket when it has one (a local round trip
   * without TCP/IP), else, or when the socket can't be reached, over TCP on 127.0.0.1.
   */
  static async connect(address: PlaneAddress, token: string, client = 'fleet-client'): Promise<PlaneClient> {
    const doors = doorsOf(address);
    const last = doors.pop()!;
    for (const door of doors) {
      try {
        return await PlaneClient.open(door, token, client);
      } catch (error) {
        // The plane's own answer (a refused handshake, a failed hello) would be the same through the
        // next door; anything else (a socket gone, stale, not ours, its queue full) leaves it to try.
        if (error instanceof HandshakeRefusedError || error instanceof PlaneCallError) throw error;
      }
    }
    return PlaneClient.open(last, token, client);
  }

  /** Connects to a plane on another machine through its TLS listener (FLEET_URL), with a service token. */
  static connectRemote(remote: RemotePlane, client = 'fleet-client'): Promise<PlaneClient> {
    return PlaneClient.open({ url: remote.url, options: remote.ca ? { ca: remote.ca } : {} }, remote.token, client);
  }

  private static async open({ url, options }: Door, token: string, client: string): Promise<PlaneClient> {
    const socket = new WebSocket(url, { ...options, headers: { authorization: `Bearer ${token}` }, maxPayload: MAX_FRAME_BYTES * 16 });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => reject(new HandshakeRefusedError(response.statusCode ?? 0, body.trim())));
      });
      socket.once('error', reject);
    });
    const planeClient = new PlaneClient(socket);
    await planeClient.call('fleet_plane_hello', { protocolVersion: PROTOCOL_VERSION, client });
    return planeClient;
  }

  call<N extends MethodName>(method: N, params: Params<N>): Promise<Result<N>> {
    return this.callRaw(method, params).then((result) => methods[method].result.parse(result) as Result<N>);
  }

  /** Sends any method with any params and resolves with the unvalidated result. */
  callRaw(method: string, params: unknown): Promise<unknown> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  onNotification(handler: (method: string, params: unknown) => void): () => void {
    this.notificationHandlers.add(handler);
    return () => this.notificationHandlers.delete(handler);
  }

  /** Why the connection ended (the plane's close code and reason, or the socket's error), once it has. */
  get closedBecause(): string | undefined {
    return this.closedError?.message;
  }

  onClose(handler: () => void): void {
    this.socket.once('close', handler);
  }

  close(): void {
    this.socket.close();
  }

  private receive(text: string): void {
    const frame = JSON.parse(text) as { id?: number; method?: string; params?: unknown; result?: unknown; error?: { code: number; message: string; data?: Record<string, unknown> } };
    if (frame.method !== undefined && frame.id === undefined) {
      for (const handler of this.notificationHandlers) handler(frame.method, frame.params);
      return;
    }
    const pending = frame.id !== undefined ? this.pending.get(frame.id) : undefined;
    if (!pending) return;
    this.pending.delete(frame.id!);
    if (frame.error) pending.reject(new PlaneCallError(frame.error.code, frame.error.message, errorNameForCode(frame.error.code), frame.error.data));
    else pending.resolve(frame.result);
  }

  private failAll(error: Error): void {
    this.closedError ??= error;
    for (const pending of this.pending.values()) pending.reject(new Error(`${pending.method}: ${error.message}`));
    this.pending.clear();
  }
}

/** A WebSocket close code and reason as words: 1006 is a connection cut without a close frame. */
function closeCause(code: number, reason: string): string {
  if (code === 1006) return 'cut without a close frame: the plane stopped, dropped this client, or the network failed';
  return `code ${code}${reason !== '' ? `: ${reason}` : ''}`;
}

export class HandshakeRefusedError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(`the plane refused the connection (${status}): ${reason}`);
  }
}
