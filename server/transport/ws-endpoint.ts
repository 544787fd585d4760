import { unlink } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Server as NetServer, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_FRAME_BYTES } from '../../contracts/index.js';
import type { Credential } from '../core/context.js';
import { Admission, MAX_CONNECTIONS, refuse } from './admission.js';
import { refuseUpgrade, type PlaneSecrets } from './handshake.js';
import { isHookFrontPost, serveHookFront, type AnswerHookFront } from './hook-front-door.js';
import type { ThrottledLog } from './throttled-log.js';
import { listenOnUnixSocket } from './unix-socket.js';

const PING_INTERVAL_MS = 15_000;
/** How long a stop waits for clients to answer its close frame (ws alone would wait 30 s). */
export const CLOSE_GRACE_MS = 2_000;

/** What the endpoint needs to know of a connection it handed over. */
export interface ServedConnection {
  /** True while the plane holds off reading the client for its own sake (its requests still run): a pong it has not read is no sign of a dead peer. */
  readingHeldByPlane(): boolean;
}

/**
 * The plane's WebSocket endpoint on 127.0.0.1, and on a Unix socket beside it. Upgrades are vetted
 * before the handshake, whichever door they came through; connections that have not upgraded are
 * capped and timed out, established ones capped; dead peers are found by ping/pong and dropped.
 * Beside WebSocket, the loopback port answers the hook front's plain POSTs (hook-front-door.ts).
 */
export class WsEndpoint {
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly alive = new WeakSet<WebSocket>();
  private readonly served = new WeakMap<WebSocket, ServedConnection>();
  private pinger: NodeJS.Timeout | undefined;
  private unix: { server: NetServer; path: string } | undefined;

  constructor(
    secrets: PlaneSecrets,
    private readonly notices: ThrottledLog,
    private readonly onConnection: (socket: WebSocket, credential: Credential) => ServedConnection,
    answerHookFront?: AnswerHookFront,
  ) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
    const admission = new Admission(notices);
    this.http = createServer((request, response) => {
      if (answerHookFront && isHookFrontPost(request)) return serveHookFront(request, response, secrets, answerHookFront, () => admission.upgraded(request.socket));
      response.writeHead(426, { 'content-type': 'text/plain' }).end('The Fleet Coordination plane speaks WebSocket JSON-RPC only.\n');
    });
    this.http.on('connection', (socket: Socket) => admission.admit(socket));
    this.http.on('upgrade', (request, socket: Socket, head) => {
      const refusal = refuseUpgrade(request, secrets);
      if ('status' in refusal) {
        refuse(socket, refusal.status, refusal.reason);
        return;
      }
      this.accept(request, socket, head, refusal.credential, () => admission.upgraded(socket));
    });
  }

  /**
   * Completes an upgrade its door has vetted (this endpoint's loopback doors, or the TLS listener),
   * within the one cap on established connections; `upgraded` tells the door's admission.
   */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer, credential: Credential, upgraded: () => void): void {
    if (this.wss.clients.size >= MAX_CONNECTIONS) {
      this.notices.note(`refused a connection: the plane already serves ${MAX_CONNECTIONS} connections, its limit`);
      refuse(socket, 503, `the plane already serves ${MAX_CONNECTIONS} connections, its limit: close clients you no longer need (each MCP session, editor window and CLI call holds one) and retry`);
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      upgraded();
      this.alive.add(ws);
      ws.on('pong', () => this.alive.add(ws));
      this.served.set(ws, this.onConnection(ws, credential));
    });
  }

  /** Listens on `port`, or on any free port when it is taken (or 0). Resolves with the port. */
  async listen(port: number): Promise<number> {
    try {
      await this.bind(port);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw error;
      await this.bind(0);
    }
    this.pinger = setInterval(() => this.pingAll(), PING_INTERVAL_MS);
    this.pinger.unref();
    const address = this.http.address();
    if (address === null || typeof address === 'string') throw new Error('the plane socket has no TCP address');
    return address.port;
  }

  /** Serves the same endpoint on a Unix socket at `path` too. */
  async listenOnSocket(path: string): Promise<void> {
    const server = await listenOnUnixSocket(path, (socket) => this.http.emit('connection', socket));
    this.unix = { server, path };
  }

  /** Closes both doors and every connection; resolves with how many clients were cut off for not answering in time. */
  async close(): Promise<number> {
    clearInterval(this.pinger);
    // Both doors stop taking connections now; each resolves once its open connections have ended.
    const closed = [this.http, ...(this.unix ? [this.unix.server] : [])].map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    for (const client of this.wss.clients) client.close(1001, 'plane shutting down');
    // A hung client (a stopped process, a blocked event loop) never answers: it must not hold the stop.
    let cutOff = 0;
    const grace = setTimeout(() => {
      for (const client of this.wss.clients) {
        cutOff++;
        client.terminate();
      }
    }, CLOSE_GRACE_MS);
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    clearTimeout(grace);
    this.http.closeAllConnections();
    await Promise.all(closed);
    if (this.unix) await unlink(this.unix.path).catch(() => undefined);
    return cutOff;
  }

  private bind(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      this.http.once('error', onError);
      this.http.listen(port, '127.0.0.1', () => {
        this.http.off('error', onError);
        resolve();
      });
    });
  }

  private pingAll(): void {
    for (const client of this.wss.clients) {
      if (!this.alive.has(client) && !this.served.get(client)?.readingHeldByPlane()) {
        client.terminate();
        continue;
      }
      this.alive.delete(client);
      client.ping();
    }
  }
}
