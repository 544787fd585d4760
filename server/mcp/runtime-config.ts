import { homedir } from 'node:os';
import { join } from 'node:path';
import { innerLines, joinLines, type ForeignLines, type Markers } from '../hooks/marked-block.js';

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

const CODEX_BLOCK_COMMENT = '# Written by `fleet init`; `fleet init --remove` takes it out.';

/** The `[mcp_servers.fleet]` table, as TOML (JSON strings are valid TOML basic strings). */
export function codexBlock(bridge: BridgeCommand): string {
  const env = Object.entries(bridge.env).map(([key, value]) => `${key} = ${JSON.stringify(value)}`).join(', ');
  return [
    CODEX_BLOCK_COMMENT,
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

const TABLE_HEADER = /^\s*\[/;
const FLEET_HEADER = /^\s*\[\s*mcp_servers\s*\.\s*(fleet|"fleet")\s*\]\s*(#.*)?$/;
/** `[mcp_servers.fleet]` and its sub-tables (`[mcp_servers.fleet.tools.x]`, which Codex writes for tool approvals). */
const FLEET_FAMILY_HEADER = /^\s*\[\s*mcp_servers\s*\.\s*(fleet|"fleet")\s*[\].]/;
const FLEET_KEY = /^\s*(command|args|env)\s*=/;

/**
 * What someone else wrote inside our config.toml block. Codex edits this file with toml_edit, which
 * prints every table and then the document's trailing comments (`Display for DocumentMut`,
 * toml_edit's encode.rs): when our block ends the file, our end marker is that trailing comment, and
 * so `/hooks` writes its `[hooks.state."…"] trusted_hash` tables inside the block. Such tables (any but `[mcp_servers.fleet]` and its sub-tables) move after the end
 * marker, byte for byte, where Codex's next tables then follow them. Settings added to our table
 * (`enabled = false`, `startup_timeout_sec`, `[mcp_servers.fleet.tools.…]`) stay in the block, after
 * our keys: they belong to the fleet server and go with it on `--remove`.
 */
export function codexBlockForeign(inner: string): ForeignLines {
  const kept: string[] = [];
  const moved: string[] = [];
  let table: 'ours' | 'fleet sub-table' | 'foreign' = 'ours';
  for (const line of innerLines(inner)) {
    if (TABLE_HEADER.test(line)) table = FLEET_HEADER.test(line) ? 'ours' : FLEET_FAMILY_HEADER.test(line) ? 'fleet sub-table' : 'foreign';
    if (table === 'foreign') moved.push(line);
    else if (!(table === 'ours' && isWrittenByUs(line))) kept.push(line);
  }
  return { kept: joinLines(kept), moved: joinLines(moved) };
}

/** A line of `[mcp_servers.fleet]` as codexBlock writes it (blank lines included: the block is rewritten whole). */
function isWrittenByUs(line: string): boolean {
  return line.trim() === '' || line.trim() === CODEX_BLOCK_COMMENT || FLEET_HEADER.test(line) || FLEET_KEY.test(line);
}
