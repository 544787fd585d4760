import { parseVerbArgs } from '../args.js';

/** `fleet mcp`: the MCP bridge over stdio, for Claude Code, Codex, Copilot agent mode and others. */
export async function mcpVerb(argv: string[]): Promise<number> {
  const { home } = parseVerbArgs(argv, {}, 'fleet mcp [--home DIR]   (speaks MCP on stdin/stdout; configure it with `fleet init`)');
  // Loaded here, not at start-up: every other verb (the hooks above all) starts faster without the SDK.
  const { runMcpBridge } = await import('../../mcp/mcp-server.js');
  await runMcpBridge({ home, cwd: process.cwd(), env: process.env });
  return 0;
}
