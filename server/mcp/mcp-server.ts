import { execFileSync } from 'node:child_process';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DEFAULT_AGENT_TTL_SECONDS } from '../../contracts/index.js';
import { BridgeSession } from './bridge-session.js';
import { chooseRuntimePid } from './runtime-pid.js';
import { buildToolCatalog } from './tool-catalog.js';
import { serverInstructions } from './tool-guidance.js';
import type { ToolProfile } from './tool-profile.js';
import { createToolServer } from './tool-server.js';

export interface McpBridgeOptions {
  home: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  profile: ToolProfile;
}

/**
 * `fleet mcp`: an MCP server on stdin/stdout whose tools are the method table's MCP methods.
 * Resolves when the client closes the session. Nothing but MCP frames may go to stdout.
 */
export async function runMcpBridge(options: McpBridgeOptions): Promise<void> {
  const log = (message: string) => process.stderr.write(`fleet mcp: ${message}\n`);
  const tools = buildToolCatalog(options.profile);
  const runtime = chooseRuntimePid(options.env);
  log(`the agent's process: ${runtime.why}`);
  const session = new BridgeSession({ home: options.home, cwd: options.cwd, worktree: worktreeOf(options.cwd), tools, heartbeatMs: heartbeatInterval(options.env), runtimePid: runtime.pid, log });
  const mcp = createToolServer(tools, (name, args) => session.call(name, args), serverInstructions((name) => tools.has(name)));
  const ended = new Promise<void>((resolve) => {
    mcp.server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await mcp.connect(new StdioServerTransport());
  await ended;
  session.close();
  await mcp.close().catch(() => undefined);
}

/** Hooks find an agent by the worktree it registered: the repository root of the working directory. */
function worktreeOf(cwd: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || cwd;
  } catch {
    return cwd;
  }
}

/** A quarter of the agent TTL, in real time (FLEET_TIME_SCALE runs the plane's clock faster). */
export function heartbeatInterval(env: NodeJS.ProcessEnv): number {
  const ttl = Number(env.FLEET_AGENT_TTL) > 0 ? Number(env.FLEET_AGENT_TTL) : DEFAULT_AGENT_TTL_SECONDS;
  const scale = Number(env.FLEET_TIME_SCALE) > 0 ? Number(env.FLEET_TIME_SCALE) : 1;
  return Math.min(30_000, Math.max(200, (ttl * 1000) / scale / 4));
}
