import { countTokens } from '@anthropic-ai/tokenizer';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI } from './plane-process.js';

/** What a runtime gets from `fleet mcp` when it connects: the tools and the server instructions. */
export interface McpToolList {
  tools: { name: string; description?: string; inputSchema: unknown }[];
  instructions: string;
}

/** Lists the bridge's tools with the official MCP client, as a runtime does at start-up. */
export async function listBridgeTools(options: { home: string; cwd: string; profile?: string }): Promise<McpToolList> {
  const client = new Client({ name: 'fleet-tool-list', version: '1.0.0' });
  const env: Record<string, string> = { ...(process.env as Record<string, string>), FLEET_HOME: options.home, FLEET_PORT: '0' };
  if (options.profile === undefined) delete env.FLEET_MCP_TOOLS;
  else env.FLEET_MCP_TOOLS = options.profile;
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: options.cwd, env, stderr: 'ignore' }));
  try {
    const { tools } = await client.listTools();
    return { tools, instructions: client.getInstructions() ?? '' };
  } finally {
    await client.close();
  }
}

/**
 * Claude tokens of the tool definitions as a runtime hands them to the model: name, description
 * and input schema per tool (annotations stay with the client).
 */
export function toolListTokens(tools: McpToolList['tools']): number {
  return tools.reduce((sum, tool) => sum + countTokens(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })), 0);
}
