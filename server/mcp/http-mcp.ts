import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { limits, MAX_FRAME_BYTES } from '../../contracts/index.js';
import type { ServiceCredential } from '../core/context.js';
import { unjoinedCaller, type Session } from '../plane/rpc/session.js';
import { asFleetError, type Dispatch } from '../transport/connection.js';
import { MAX_CONNECTIONS } from '../transport/admission.js';
import { MAX_IN_FLIGHT } from '../transport/flow-control.js';
import { MAX_CONNECTIONS_PER_TOKEN } from '../transport/token-connections.js';
import { buildToolCatalog } from './tool-catalog.js';
import { errorResult, toolError, toolResult, type ToolCallResult } from './tool-result.js';
import { remoteInstructions } from './tool-guidance.js';
import { createToolServer } from './tool-server.js';

/** One MCP session on /mcp: the plane session it acts through, bound to the token that opened it. */
interface HttpMcpSession {
  transport: StreamableHTTPServerTransport;
  mcp: McpServer;
  credential: ServiceCredential;
  lastUsed: number;
}

/**
 * MCP over Streamable HTTP at /mcp on the TLS listener (DESIGN §13), with the same tool catalog
 * as the stdio bridge. Each session is bound to the service token that opened it and acts only as
 * that token's agent: its first tool call joins as the token's callsign, so a cloud runtime needs
 * no join step. Calls run in the plane, through the same dispatcher as every other transport.
 */
export class HttpMcpService {
  private readonly tools = buildToolCatalog('default', 'remote');
  private readonly sessions = new Map<string, HttpMcpSession>();

  constructor(
    private readonly dispatch: Dispatch,
    /** The TTL of its agents (tier edge), in plane seconds: the instructions say how often to call. */
    private readonly edgeTtlSeconds: number,
    private readonly log: (message: string) => void,
  ) {}

  /** Serves one authenticated request to /mcp. */
  async handle(request: IncomingMessage, response: ServerResponse, credential: ServiceCredential): Promise<void> {
    const id = request.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = this.sessions.get(id);
      if (!session) return answer(response, 404, `no MCP session ${id} here (it ended, or the plane restarted): initialize a new session`);
      if (session.credential.tokenId !== credential.tokenId) return answer(response, 403, 'that MCP session belongs to another service token');
      session.lastUsed = Date.now();
      return session.transport.handleRequest(request, response);
    }
    // One token's sessions make room among themselves: a runner that never ends its sessions evicts only its own.
    const own = [...this.sessions].filter(([, session]) => session.credential.tokenId === credential.tokenId);
    if (own.length >= MAX_CONNECTIONS_PER_TOKEN) this.closeLeastRecentlyUsed(own, `${MAX_CONNECTIONS_PER_TOKEN} sessions per token`);
    else if (this.sessions.size >= MAX_CONNECTIONS) this.closeLeastRecentlyUsed(this.sessions, `${MAX_CONNECTIONS} sessions`);
    const session = await this.open(credential);
    await session.transport.handleRequest(request, response);
    // A request that did not initialize a session leaves nothing behind.
    if (session.transport.sessionId === undefined) await session.mcp.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.mcp.close().catch(() => undefined)));
    this.sessions.clear();
  }

  private async open(credential: ServiceCredential): Promise<HttpMcpSession> {
    // Ends with the MCP session: a claim it is waiting for is withdrawn, as for a closed connection.
    const ended = new AbortController();
    const plane: Session = {
      caller: unjoinedCaller(credential),
      credential,
      closed: ended.signal,
      // Events are not offered over MCP: nothing to notify, never behind.
      notify: () => undefined,
      notificationsBehind: () => false,
      notificationsDrained: () => Promise.resolve(),
    };
    let inFlight = 0;
    const call = async (name: string, args: Record<string, unknown> | undefined): Promise<ToolCallResult> => {
      if (!this.tools.has(name)) return toolError('METHOD_NOT_FOUND', `no fleet tool named "${name}"; the tools are ${[...this.tools.keys()].join(', ')}`);
      // The same bound as a WebSocket client's requests in flight (flow-control.ts).
      if (inFlight >= MAX_IN_FLIGHT) return toolError('LIMIT_REACHED', `this MCP session already has ${MAX_IN_FLIGHT} calls running, the limit: wait for their results`);
      inFlight++;
      try {
        if (plane.caller.kind !== 'agent' && name !== 'fleet_agent_join') {
          // The runtime is what the MCP client calls itself, cut to the label limit a join takes.
          const runtime = session.mcp.server.getClientVersion()?.name.slice(0, limits.label.max) || 'remote';
          await this.dispatch(plane, 'fleet_agent_join', { callsign: credential.callsign, runtime });
        }
        return toolResult((await this.dispatch(plane, name, args ?? {})) as Record<string, unknown>);
      } catch (error) {
        return errorResult(asFleetError(error, this.log));
      } finally {
        inFlight--;
      }
    };
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      maxRequestBodySize: MAX_FRAME_BYTES,
      onsessioninitialized: (id) => void this.sessions.set(id, session),
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    const session: HttpMcpSession = { transport, mcp: createToolServer(this.tools, call, remoteInstructions(credential.callsign, this.edgeTtlSeconds, (name) => this.tools.has(name))), credential, lastUsed: Date.now() };
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
      ended.abort();
    };
    await session.mcp.connect(transport);
    return session;
  }

  /** Sessions a client never ended must not pile up: past the cap, the one idle longest goes. */
  private closeLeastRecentlyUsed(among: Iterable<[string, HttpMcpSession]>, limit: string): void {
    let oldest: [string, HttpMcpSession] | undefined;
    for (const entry of among) if (!oldest || entry[1].lastUsed < oldest[1].lastUsed) oldest = entry;
    if (!oldest) return;
    this.sessions.delete(oldest[0]);
    this.log(`closed MCP session ${oldest[0]} of ${oldest[1].credential.callsign}, idle longest, to make room: ${limit} is the limit`);
    void oldest[1].mcp.close().catch(() => undefined);
  }
}

function answer(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
