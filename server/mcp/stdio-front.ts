// `fleet mcp`'s side of MCP's stdio transport, by hand: newline-delimited JSON-RPC on stdin/stdout.
// It answers initialize, ping and tools/list from what it is given (the generated tool list), with
// nothing loaded but node builtins, so a runtime that asks for the tools right after spawning the
// bridge (Codex's first model request goes out ~0.9 s in) has them in about a bare Node's start-up.
// tools/call goes to `call`, which loads the plane client and the contracts on first use.
import { MAX_FRAME_BYTES, PLANE_VERSION } from '../../contracts/protocol.js';
import type { ToolDefinition } from './tool-catalog.js';
import type { ToolCallResult } from './tool-result.js';

/** The MCP revisions this server speaks, newest first (the SDK's SUPPORTED_PROTOCOL_VERSIONS; a unit test keeps them equal). */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const;

/** A request line longer than this is refused unread: a tool call's arguments are bounded by the plane's frame. */
const MAX_LINE_BYTES = 4 * MAX_FRAME_BYTES;

export interface StdioServer {
  tools: readonly ToolDefinition[];
  instructions: string;
  call(name: string, args: Record<string, unknown> | undefined): Promise<ToolCallResult>;
  /** tools/list has been answered: a good moment to load what tools/call needs. */
  listed?(): void;
}

interface Message {
  jsonrpc?: unknown;
  id?: string | number | null;
  method?: unknown;
  params?: unknown;
}

/** Serves MCP on `input`/`output` until `input` ends. */
export function serveStdio(server: StdioServer, input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<void> {
  const send = (message: object) => output.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  let buffered = '';
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end).replace(/\r$/, '');
      buffered = buffered.slice(end + 1);
      if (line.trim() !== '') void receive(line);
    }
    if (buffered.length > MAX_LINE_BYTES) {
      buffered = '';
      send({ id: null, error: { code: -32600, message: `a message longer than ${MAX_LINE_BYTES} bytes was dropped` } });
    }
  });

  async function receive(line: string): Promise<void> {
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch (error) {
      return void send({ id: null, error: { code: -32700, message: `Parse error: ${(error as Error).message}` } });
    }
    // Notifications (initialized, cancelled…) need no answer; neither do replies (this server asks nothing).
    if (typeof message !== 'object' || message === null || typeof message.method !== 'string' || message.id === undefined) return;
    const { id, method, params } = message;
    try {
      send({ id, result: await answer(method, (params ?? {}) as Record<string, unknown>) });
    } catch (error) {
      const { code = -32603, message: text } = error as { code?: number; message: string };
      send({ id, error: { code, message: text } });
    }
    if (method === 'tools/list') server.listed?.();
  }

  async function answer(method: string, params: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case 'initialize': {
        const asked = params.protocolVersion;
        const protocolVersion = (MCP_PROTOCOL_VERSIONS as readonly unknown[]).includes(asked) ? asked : MCP_PROTOCOL_VERSIONS[0];
        return { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'fleet', title: 'Fleet Coordination', version: PLANE_VERSION }, instructions: server.instructions };
      }
      case 'ping':
        return {};
      case 'tools/list':
        return { tools: server.tools };
      case 'tools/call': {
        const { name, arguments: args } = params;
        if (typeof name !== 'string' || (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))) {
          throw Object.assign(new Error('Invalid params: tools/call takes {name: string, arguments?: object}'), { code: -32602 });
        }
        return server.call(name, args as Record<string, unknown> | undefined);
      }
      default:
        throw Object.assign(new Error(`Method not found: ${method}`), { code: -32601 });
    }
  }

  return new Promise((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
  });
}
