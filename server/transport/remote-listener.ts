import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { TLSSocket, type SecureContext } from 'node:tls';
import type { ServiceCredential } from '../core/context.js';
import { Admission, MAX_UNAUTHENTICATED, refuse } from './admission.js';
import { refuseRemoteRequest, type Authenticate } from './remote-handshake.js';
import type { ThrottledLog } from './throttled-log.js';
import { MAX_REMOTE_CONNECTIONS, TokenConnections } from './token-connections.js';
import type { WsEndpoint } from './ws-endpoint.js';

/** Where MCP over Streamable HTTP is served on the listener. */
export const MCP_PATH = '/mcp';

/** The first byte of every TLS connection (a handshake record); anything else is plain text. */
const TLS_HANDSHAKE_RECORD = 0x16;

export interface RemoteListenerOptions {
  host: string;
  port: number;
  secureContext: SecureContext;
  authenticate: Authenticate;
  /** Serves one authenticated request to /mcp. */
  mcp(request: IncomingMessage, response: ServerResponse, credential: ServiceCredential): Promise<void>;
  log(message: string): void;
}

/**
 * `fleet serve --listen`: the plane's endpoint beyond loopback (DESIGN §13), TLS only, service
 * tokens only. WebSocket upgrades go to the same endpoint (and its cap on connections) as loopback
 * ones; /mcp serves MCP over Streamable HTTP. Connections that have not authenticated are capped
 * and timed out by an admission of their own, so a flood from the network never evicts a local
 * client's handshake; authenticated ones are capped per token and in all (token-connections.ts). A client speaking plain HTTP is answered in plain text, saying to use TLS.
 */
export class RemoteListener {
  private readonly tcp: TcpServer;
  private readonly http: Server;
  private readonly admission: Admission;
  /** The TCP socket under each TLS one, which is what the admission watches. */
  private readonly rawOf = new WeakMap<Duplex, Socket>();
  private readonly secureOf = new WeakMap<Duplex, TLSSocket>();
  private readonly open = new Set<Socket>();
  private readonly perToken = new TokenConnections();
  private stopped: Promise<void> | undefined;

  constructor(endpoint: WsEndpoint, private readonly options: RemoteListenerOptions, private readonly notices: ThrottledLog) {
    this.admission = new Admission(notices, (raw) => (this.secureOf.get(raw) ?? raw).destroy());
    this.http = createServer((request, response) => this.serveRequest(request, response));
    this.http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const vetted = refuseRemoteRequest(request, options.authenticate);
      if ('status' in vetted) {
        refuse(socket, vetted.status, vetted.reason);
        return;
      }
      const full = this.takeSlot(socket, vetted.credential);
      if (full !== undefined) {
        refuse(socket, 503, full);
        return;
      }
      endpoint.accept(request, socket, head, vetted.credential, () => this.authenticated(socket));
    });
    // A failed TLS handshake or a malformed request: nothing useful can be said over it.
    this.http.on('clientError', (_error, socket: Duplex) => socket.destroy());
    this.tcp = createTcpServer((raw) => this.connected(raw, notices));
    this.tcp.maxConnections = MAX_REMOTE_CONNECTIONS + MAX_UNAUTHENTICATED;
  }

  /** Binds ADDR:PORT; resolves with the port (0 picks a free one). */
  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.tcp.once('error', reject);
      this.tcp.listen(this.options.port, this.options.host, () => {
        this.tcp.off('error', reject);
        const address = this.tcp.address();
        resolve(typeof address === 'object' && address !== null ? address.port : this.options.port);
      });
    });
  }

  /** Takes no new connection from now on (the endpoint then closes the established ones). */
  stopAccepting(): void {
    this.stopped ??= new Promise((resolve) => this.tcp.close(() => resolve()));
  }

  /** Ends whatever is left (connections still in their handshake, idle HTTP keep-alives); resolves once none is open. */
  async close(): Promise<void> {
    this.stopAccepting();
    for (const socket of this.open) socket.destroy();
    this.http.closeAllConnections();
    await this.stopped;
  }

  private connected(raw: Socket, notices: ThrottledLog): void {
    this.open.add(raw);
    raw.once('close', () => this.open.delete(raw));
    raw.on('error', () => raw.destroy());
    this.admission.admit(raw);
    raw.once('data', (first: Buffer) => {
      raw.pause();
      if (first[0] !== TLS_HANDSHAKE_RECORD) {
        notices.note('refused a connection that did not start TLS on the listener');
        refuse(raw, 400, "this listener speaks TLS only: use https:// (MCP at /mcp) or wss://, trusting the plane's certificate (FLEET_CA)");
        return;
      }
      raw.unshift(first);
      const secure = new TLSSocket(raw, { isServer: true, secureContext: this.options.secureContext });
      secure.on('error', () => secure.destroy());
      this.rawOf.set(secure, raw);
      this.secureOf.set(raw, secure);
      this.http.emit('connection', secure);
    });
  }

  private serveRequest(request: IncomingMessage, response: ServerResponse): void {
    const path = new URL(request.url ?? '/', 'https://listener').pathname;
    if (path !== MCP_PATH) {
      plain(response, 404, `nothing at ${path}: this listener serves WebSocket JSON-RPC (wss://HOST:PORT/) and MCP over Streamable HTTP at ${MCP_PATH}`);
      return;
    }
    const vetted = refuseRemoteRequest(request, this.options.authenticate);
    if ('status' in vetted) {
      plain(response, vetted.status, vetted.reason);
      return;
    }
    const full = this.takeSlot(request.socket, vetted.credential);
    if (full !== undefined) {
      plain(response, 503, full);
      return;
    }
    this.authenticated(request.socket);
    this.options.mcp(request, response, vetted.credential).catch((error: Error) => {
      this.options.log(`MCP request failed: ${error.stack ?? error.message}`);
      if (!response.headersSent) plain(response, 500, `internal error: ${error.message}`);
      else response.destroy();
    });
  }

  /** Counts an authenticated connection under its token; why not, when its token or the listener is full. */
  private takeSlot(socket: Duplex, credential: ServiceCredential): string | undefined {
    const refusal = this.perToken.take(this.rawOf.get(socket) ?? socket, credential);
    if (refusal !== undefined) this.notices.note(`refused a connection of service token ${credential.tokenId} (${credential.callsign}): its cap, or the listener's, is reached`);
    return refusal;
  }

  /** The connection proved a token: from now on it is no longer waiting on the admission's clock. */
  private authenticated(socket: Duplex): void {
    const raw = this.rawOf.get(socket);
    if (raw) this.admission.upgraded(raw);
  }
}

function plain(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${message}\n`);
}
