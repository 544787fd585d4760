import { toolProfileFrom } from '../../mcp/tool-profile.js';
import { parseVerbArgs } from '../args.js';
import { UsageError } from '../cli-error.js';

/** `fleet mcp`: the MCP bridge over stdio, for Claude Code, Codex, Copilot agent mode and others. */
export async function mcpVerb(argv: string[]): Promise<number> {
  const { home } = parseVerbArgs(argv, {}, 'fleet mcp [--home DIR]   (speaks MCP on stdin/stdout; configure it with `fleet init`; FLEET_MCP_TOOLS=lean offers 11 tools instead of 24)');
  let profile;
  try {
    profile = toolProfileFrom(process.env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  // Loaded here, not at start-up: every other verb (the hooks above all) starts faster without the SDK.
  const { runMcpBridge } = await import('../../mcp/mcp-server.js');
  await runMcpBridge({ home, cwd: process.cwd(), env: process.env, profile });
  return 0;
}
