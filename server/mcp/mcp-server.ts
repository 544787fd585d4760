import { execFileSync } from 'node:child_process';
import { DEFAULT_AGENT_TTL_SECONDS } from '../../contracts/defaults.js';
import { chooseRuntimePid } from './runtime-pid.js';
import { serveStdio } from './stdio-front.js';
import { serverInstructions } from './tool-guidance.js';
import { TOOL_LISTS } from './tool-list.generated.js';
import type { ToolProfile } from './tool-profile.js';
import type { ToolCallResult } from './tool-result.js';

export interface McpBridgeOptions {
  home: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  profile: ToolProfile;
}

type Bridge = { call(name: string, args: Record<string, unknown> | undefined): Promise<ToolCallResult>; close(): void };

/**
 * `fleet mcp`: an MCP server on stdin/stdout whose tools are the method table's MCP methods.
 * Resolves when the client closes the session. Nothing but MCP frames may go to stdout.
 * initialize and tools/list are answered from the generated tool list before anything else loads;
 * the plane's client, the contracts and the git lookup of the worktree load once the tools are
 * listed (or at the first call), and the plane is reached at the first call.
 */
export async function runMcpBridge(options: McpBridgeOptions): Promise<void> {
  const log = (message: string) => process.stderr.write(`fleet mcp: ${message}\n`);
  const tools = TOOL_LISTS[options.profile];
  const offered = new Set(tools.map((tool) => tool.name));
  const runtime = chooseRuntimePid(options.env);
  log(`the agent's process: ${runtime.why}`);
  let bridge: Promise<Bridge> | undefined;
  const session = () => (bridge ??= openBridge(options, runtime.pid, log));
  const served = serveStdio({
    tools,
    instructions: serverInstructions((name) => offered.has(name)),
    call: async (name, args) => (await session()).call(name, args),
    listed: () => void session(),
  });
  await new Promise<void>((resolve) => {
    void served.then(resolve);
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  (await bridge)?.close();
}

/** The session that carries tool calls to the plane (bridge-session.ts), with the catalog that validates their results. */
async function openBridge(options: McpBridgeOptions, runtimePid: number | undefined, log: (message: string) => void): Promise<Bridge> {
  const [{ BridgeSession }, { buildToolCatalog }] = await Promise.all([import('./bridge-session.js'), import('./tool-catalog.js')]);
  return new BridgeSession({ home: options.home, cwd: options.cwd, worktree: worktreeOf(options.cwd), tools: buildToolCatalog(options.profile), heartbeatMs: heartbeatInterval(options.env), runtimePid, log });
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
