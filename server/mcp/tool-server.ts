import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { PLANE_VERSION } from '../../contracts/index.js';
import type { BridgeTool } from './tool-catalog.js';
import type { ToolCallResult } from './tool-result.js';

/**
 * An MCP server offering the catalog's tools, each call handed to `call`: the stdio bridge (through
 * its plane connection) and the TLS listener's /mcp (in the plane itself) differ only there.
 * Tools are listed and dispatched through the SDK's low-level handlers (reached from McpServer),
 * because the schemas come from the contracts as JSON Schema rather than as SDK-side zod shapes.
 */
export function createToolServer(
  tools: ReadonlyMap<string, BridgeTool>,
  call: (name: string, args: Record<string, unknown> | undefined) => Promise<ToolCallResult>,
  instructions: string,
): McpServer {
  const mcp = new McpServer({ name: 'fleet', title: 'Fleet Coordination', version: PLANE_VERSION }, { capabilities: { tools: {} }, instructions });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools.values()].map((tool) => tool.definition) }));
  mcp.server.setRequestHandler(CallToolRequestSchema, (request) => call(request.params.name, request.params.arguments));
  return mcp;
}
