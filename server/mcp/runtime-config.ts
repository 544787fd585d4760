import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Markers } from '../hooks/marked-block.js';

/** How a runtime starts the bridge: the stable launcher, on this FLEET_HOME. */
export interface BridgeCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export function bridgeCommand(launcher: string, home: string): BridgeCommand {
  return { command: launcher, args: ['mcp'], env: { FLEET_HOME: home } };
}

/** Claude Code's project-scoped MCP servers: `.mcp.json` at the repository root. */
export function claudeMcpPath(root: string): string {
  return join(root, '.mcp.json');
}

/** Codex reads MCP servers from $CODEX_HOME/config.toml (default ~/.codex). */
export function codexConfigPath(env: NodeJS.ProcessEnv): string {
  return join(env.CODEX_HOME ?? join(homedir(), '.codex'), 'config.toml');
}

export const CODEX_MARKERS: Markers = {
  begin: '# >>> fleet-coordination >>>',
  end: '# <<< fleet-coordination <<<',
};

/** The `[mcp_servers.fleet]` table, as TOML (JSON strings are valid TOML basic strings). */
export function codexBlock(bridge: BridgeCommand): string {
  const env = Object.entries(bridge.env).map(([key, value]) => `${key} = ${JSON.stringify(value)}`).join(', ');
  return [
    '# Written by `fleet init`; `fleet init --remove` takes it out.',
    '[mcp_servers.fleet]',
    `command = ${JSON.stringify(bridge.command)}`,
    `args = [${bridge.args.map((a) => JSON.stringify(a)).join(', ')}]`,
    `env = { ${env} }`,
  ].join('\n');
}

/** A `[mcp_servers.fleet]` table written by hand (outside our block) must not be duplicated. */
export function hasHandWrittenCodexEntry(content: string): boolean {
  return /^\s*\[\s*mcp_servers\s*\.\s*(fleet|"fleet")\s*\]/m.test(content);
}
