import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { claudeSettingsPath } from '../hooks/claude-settings.js';
import { commonDirectory } from '../hooks/git.js';
import { installHooks, uninstallHooks, type HookSelection } from '../hooks/install.js';
import { ensureLauncher } from '../hooks/launcher.js';
import { findBlock, innerLines, joinLines, removeBlock, upsertBlock, type ForeignReader, type Markers } from '../hooks/marked-block.js';
import { onPath, removeLocalHome, writeLocalHome } from './claude-local-env.js';
import { AGENT_INSTRUCTIONS, INSTRUCTION_FILES, INSTRUCTIONS_MARKERS } from './agent-instructions.js';
import { bridgeCommand, claudeMcpPath, CODEX_MARKERS, codexBlock, codexBlockForeign, codexConfigPath, hasHandWrittenCodexEntry, type BridgeCommand } from './runtime-config.js';

export interface InitOptions {
  root: string;
  home: string;
  env: NodeJS.ProcessEnv;
  claude: boolean;
  codex: boolean;
  instructions: boolean;
  /** The write gate's hooks, with the same code as `fleet install-hooks` (git's pre-commit too, unless `git` is false). */
  hooks: boolean;
  git: boolean;
}

/** What `fleet init` created rather than edited, so `--remove` leaves the repository as it found it. */
const manifestSchema = z.object({
  mcpJsonCreated: z.boolean().default(false),
  mcpServersCreated: z.boolean().default(false),
  /** FLEET_HOME written into .claude/settings.local.json's env (a home other than the default). */
  localHomeWritten: z.boolean().default(false),
  /** Writing it created settings.local.json (the hooks' install had not). */
  localSettingsCreated: z.boolean().default(false),
  /** The instructions text last written into AGENTS.md and CLAUDE.md: any other line found in the block is someone else's. */
  instructionsWritten: z.string().max(64 * 1024).optional(),
});
type Manifest = z.infer<typeof manifestSchema>;

type Outcome = 'created' | 'updated' | 'unchanged' | 'removed' | 'absent' | 'left as it is';

/**
 * Writes the per-runtime set-up; running it again leaves every file as it is. Files meant to be
 * committed (.mcp.json, AGENTS.md, CLAUDE.md) get nothing machine-specific: .mcp.json starts the
 * launcher by name from PATH, and this user's FLEET_HOME (when it is not the default) goes into
 * .claude/settings.local.json's env; the hooks, which name absolute paths, go where install-hooks
 * puts them (settings.local.json, $CODEX_HOME/hooks.json, the git hooks directory).
 */
export function initRepository(options: InitOptions): string[] {
  const launcher = ensureLauncher(options.home);
  const manifest = readManifest(options.root);
  const report: string[] = launcher.created ? [`wrote the launcher ${launcher.path} (it runs this checkout's CLI)`] : [];
  if (options.hooks) report.push(...installHooks(options.root, options.home, hookSelection(options), options.env));
  if (options.claude) {
    report.push(line('Claude Code MCP server (.mcp.json)', writeClaudeMcp(options.root, PROJECT_BRIDGE, manifest), claudeMcpPath(options.root)));
    const { outcome: home, written } = writeLocalHome(options.root, options.home, options.env, manifest.localHomeWritten);
    manifest.localHomeWritten = written;
    if (home === 'created') manifest.localSettingsCreated = true;
    if (home !== 'absent') report.push(line('FLEET_HOME for Claude Code (settings.local.json env)', home, claudeSettingsPath(options.root, 'local')));
    if (!onPath(launcher.path, options.env)) report.push(`note: Claude Code starts the fleet MCP server as \`fleet\` from PATH, and ${launcher.path} is not what PATH finds: add ${dirname(launcher.path)} to PATH (the VS Code extension offers to)`);
  }
  if (options.codex) {
    const path = codexConfigPath(options.env);
    report.push(line('Codex MCP server [mcp_servers.fleet]', writeCodex(path, bridgeCommand(launcher.path, options.home)), path));
  }
  if (options.instructions) {
    const foreign = instructionsForeign(manifest);
    for (const file of INSTRUCTION_FILES) {
      const path = join(options.root, file);
      report.push(line(`agent instructions block`, writeBlock(path, INSTRUCTIONS_MARKERS, AGENT_INSTRUCTIONS, foreign), path));
    }
    manifest.instructionsWritten = AGENT_INSTRUCTIONS;
  }
  writeManifest(options.root, manifest);
  return report;
}

/** `fleet init --remove`: takes out everything init wrote, and nothing else. */
export function removeFromRepository(options: InitOptions): string[] {
  const manifest = readManifest(options.root);
  const report: string[] = [];
  if (options.claude) {
    report.push(line('Claude Code MCP server (.mcp.json)', removeClaudeMcp(options.root, manifest), claudeMcpPath(options.root)));
    if (manifest.localHomeWritten) report.push(line('FLEET_HOME for Claude Code (settings.local.json env)', removeLocalHome(options.root, options.home, manifest.localSettingsCreated), claudeSettingsPath(options.root, 'local')));
    manifest.localHomeWritten = false;
    manifest.localSettingsCreated = false;
  }
  // After the env: the settings file the hooks' install created goes when nothing else is left in it.
  if (options.hooks) report.push(...uninstallHooks(options.root, hookSelection(options), options.env));
  if (options.codex) {
    const path = codexConfigPath(options.env);
    report.push(line('Codex MCP server [mcp_servers.fleet]', takeBlockOut(path, CODEX_MARKERS, codexBlockForeign), path));
  }
  if (options.instructions) {
    const foreign = instructionsForeign(manifest);
    for (const file of INSTRUCTION_FILES) {
      const path = join(options.root, file);
      report.push(line('agent instructions block', takeBlockOut(path, INSTRUCTIONS_MARKERS, foreign), path));
    }
    manifest.instructionsWritten = undefined;
  }
  if (options.claude) {
    manifest.mcpJsonCreated = false;
    manifest.mcpServersCreated = false;
  }
  writeManifest(options.root, manifest);
  return report;
}

/** The committed .mcp.json's entry: the launcher by name (PATH), FLEET_HOME from the environment; nothing of this machine. */
const PROJECT_BRIDGE: BridgeCommand = { command: 'fleet', args: ['mcp'], env: {} };

function hookSelection(options: InitOptions): HookSelection {
  return { git: options.git, claude: options.claude, codex: options.codex, claudeScope: 'local' };
}

const line = (what: string, outcome: Outcome, path: string) => `${what} ${outcome}: ${path}`;

type JsonObject = Record<string, unknown>;

function writeClaudeMcp(root: string, bridge: BridgeCommand, manifest: Manifest): Outcome {
  const path = claudeMcpPath(root);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const config = before !== undefined ? parseObject(path, before) : {};
  if (config.mcpServers === undefined) {
    config.mcpServers = {};
    manifest.mcpServersCreated = true;
  }
  const servers = config.mcpServers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) throw new Error(`${path}: "mcpServers" is not an object; fix it, then run fleet init again`);
  // Fields someone added to the entry (an `env`, a `type`) stay, in their place.
  const theirs = (servers as JsonObject).fleet;
  (servers as JsonObject).fleet = { ...(isObject(theirs) ? theirs : {}), command: bridge.command, args: bridge.args, ...(Object.keys(bridge.env).length > 0 && { env: bridge.env }) };
  const next = `${JSON.stringify(config, null, 2)}\n`;
  if (next === before) return 'unchanged';
  if (before === undefined) manifest.mcpJsonCreated = true;
  writeFileSync(path, next);
  return before === undefined ? 'created' : 'updated';
}

function removeClaudeMcp(root: string, manifest: Manifest): Outcome {
  const path = claudeMcpPath(root);
  if (!existsSync(path)) return 'absent';
  const config = parseObject(path, readFileSync(path, 'utf8'));
  const servers = config.mcpServers as JsonObject | undefined;
  if (!servers || typeof servers !== 'object' || !('fleet' in servers)) return 'absent';
  delete servers.fleet;
  if (manifest.mcpServersCreated && Object.keys(servers).length === 0) delete config.mcpServers;
  if (manifest.mcpJsonCreated && Object.keys(config).length === 0) unlinkSync(path);
  else writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return 'removed';
}

function writeCodex(path: string, bridge: BridgeCommand): Outcome {
  const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (hasHandWrittenCodexEntry(removeBlock(before, CODEX_MARKERS).content)) return 'left as it is';
  return writeBlock(path, CODEX_MARKERS, codexBlock(bridge), codexBlockForeign);
}

/**
 * Someone else's lines in an instructions block: those that are in neither the text init writes
 * now nor the text it last wrote; they move after the end marker. Before init has recorded what it
 * wrote (a repository set up by an older fleet) it cannot tell an older text of its own from a
 * user's, and takes the whole block as its own, as it always did.
 */
function instructionsForeign(manifest: Manifest): ForeignReader | undefined {
  const written = manifest.instructionsWritten;
  if (written === undefined) return undefined;
  const ours = new Set([...innerLines(`${AGENT_INSTRUCTIONS}\n`), ...innerLines(`${written}\n`)]);
  return (inner) => {
    const moved: string[] = [];
    let blanks: string[] = [];
    for (const text of innerLines(inner)) {
      if (text.trim() === '') blanks.push(text);
      else if (!ours.has(text)) moved.push(...(moved.length > 0 ? blanks : []), text);
      // Blank lines count only between someone else's lines.
      if (text.trim() !== '') blanks = [];
    }
    return { kept: '', moved: joinLines(moved) };
  };
}

function writeBlock(path: string, markers: Markers, body: string, foreign?: ForeignReader): Outcome {
  const exists = existsSync(path);
  const before = exists ? readFileSync(path, 'utf8') : '';
  const next = upsertBlock(before, markers, body, 'bottom', foreign);
  if (next === before) return 'unchanged';
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, next);
  return !exists ? 'created' : findBlock(before, markers) ? 'updated' : 'created';
}

/** A file that held nothing but the block is deleted: it did not exist before init wrote it. */
function takeBlockOut(path: string, markers: Markers, foreign?: ForeignReader): Outcome {
  if (!existsSync(path)) return 'absent';
  const { content, found } = removeBlock(readFileSync(path, 'utf8'), markers, foreign);
  if (!found) return 'absent';
  if (content === '') unlinkSync(path);
  else writeFileSync(path, content);
  return 'removed';
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseObject(path: string, text: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${(error as Error).message}): fix it, then run fleet init again; nothing was changed`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${path} is not a JSON object: fix it, then run fleet init again`);
  return value as JsonObject;
}

function manifestPath(root: string): string {
  return join(commonDirectory(root), 'fleet-init.json');
}

function readManifest(root: string): Manifest {
  try {
    return manifestSchema.parse(JSON.parse(readFileSync(manifestPath(root), 'utf8')));
  } catch {
    return manifestSchema.parse({});
  }
}

function writeManifest(root: string, manifest: Manifest): void {
  const path = manifestPath(root);
  if (!Object.values(manifest).some(Boolean)) {
    if (existsSync(path)) unlinkSync(path);
    return;
  }
  writeFileSync(path, `${JSON.stringify(manifest)}\n`);
}
