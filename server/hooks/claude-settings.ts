import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { parseConfigJson } from './config-json.js';
import { CLAUDE_MCP_TOOLS, CLAUDE_SHELL_TOOL, CLAUDE_WRITE_TOOLS } from './claude-pre-tool-use.js';
import { failClosed, hookCommand, shellQuote as quote } from './hook-command.js';
import { placeOurHook, type MatcherGroup as MatcherEntry } from './hook-groups.js';

/** The file tools, the shell, and every MCP tool (the hook checks those whose input names a path to write). */
export const CLAUDE_MATCHER = [...CLAUDE_WRITE_TOOLS, CLAUDE_SHELL_TOOL, CLAUDE_MCP_TOOLS].join('|');

/**
 * PostToolUse on the tools whose writes no check saw exactly: the shell and MCP tools (PreToolUse
 * marked the worktree for them). The file tools are checked exactly before they write, and their
 * conflict-forecast note rides on that PreToolUse: a PostToolUse of their own would start a second
 * process per write for nothing. Claude Code's other tools do not write.
 */
export const CLAUDE_POST_MATCHER = [CLAUDE_SHELL_TOOL, CLAUDE_MCP_TOOLS].join('|');

/** The hooks after PreToolUse, each on its Claude Code event (the session ones with no matcher: every source, every reason). */
const LATER_HOOKS = [
  { event: 'PostToolUse', verb: 'claude-post-tool-use', matcher: CLAUDE_POST_MATCHER },
  { event: 'SessionStart', verb: 'claude-session-start' },
  { event: 'SessionEnd', verb: 'claude-session-end' },
  // Every notification type: the verb records those that wait for a person and answers nothing.
  { event: 'Notification', verb: 'claude-notification' },
] as const;

/** How an installed command names its verb, in the lean runner's form and the `fleet hook` form before it. */
const named = (verb: string) => ` ${verb} --home `;

const hookEntrySchema = z.looseObject({ command: z.string().optional() });
const matcherEntrySchema = z.looseObject({ matcher: z.string().optional(), hooks: z.array(hookEntrySchema).optional() });
const settingsSchema = z.looseObject({ hooks: z.record(z.string(), z.array(matcherEntrySchema)).optional() });

/** Which settings file: the local one (not committed, the default) or the shared one teammates get. */
export type ClaudeSettingsScope = 'local' | 'shared';
export const CLAUDE_SETTINGS_SCOPES: readonly ClaudeSettingsScope[] = ['local', 'shared'];

export function claudeSettingsPath(root: string, scope: ClaudeSettingsScope): string {
  return join(root, '.claude', scope === 'local' ? 'settings.local.json' : 'settings.json');
}

/** Every entry the fleet writes: event, matcher (if any) and the hook command (the lean runner's, for every event). */
function fleetEntries(root: string, home: string, launcher: string, scope: ClaudeSettingsScope): { event: string; verb: string; entry: MatcherEntry }[] {
  const command = (verb: string) => hookCommand(launcher, verb, `--home ${quote(home)}`);
  return [
    {
      event: 'PreToolUse',
      verb: named('claude-pre-tool-use'),
      entry: { matcher: CLAUDE_MATCHER, hooks: [{ type: 'command', command: failClosed(command('claude-pre-tool-use'), launcher, claudeSettingsPath(root, scope)), timeout: 30 }] },
    },
    ...LATER_HOOKS.map((hook) => ({
      event: hook.event,
      verb: named(hook.verb),
      entry: { ...('matcher' in hook && { matcher: hook.matcher }), hooks: [{ type: 'command', command: command(hook.verb), timeout: 30 }] },
    })),
  ];
}

const FLEET_VERBS = [named('claude-pre-tool-use'), ...LATER_HOOKS.map((hook) => named(hook.verb))];
const isOurs = (hook: { command?: string | undefined }, verbs: readonly string[] = FLEET_VERBS) => verbs.some((verb) => hook.command?.includes(verb) === true);

export interface ClaudeInstallResult {
  path: string;
  outcome: 'created' | 'updated' | 'unchanged';
  createdFile: boolean;
  createdDir: boolean;
}

/**
 * Adds the fleet's Claude Code hooks (PreToolUse on the write tools, the shell and MCP tools;
 * PostToolUse; SessionStart; SessionEnd; Notification) to one settings file, keeping everything else in it, in its order.
 * Run again, it replaces its own entries in place.
 */
export function installClaudeHooks(root: string, home: string, launcher: string, scope: ClaudeSettingsScope): ClaudeInstallResult {
  const path = claudeSettingsPath(root, scope);
  const createdDir = !existsSync(dirname(path));
  const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const settings = before !== undefined ? parseSettings(path, before) : {};
  const hooks = (settings.hooks ??= {});
  for (const { event, verb, entry } of fleetEntries(root, home, launcher, scope)) {
    hooks[event] = placeOurHook(hooks[event] ?? [], (hook) => isOurs(hook, [verb]), entry.matcher, entry.hooks![0]!);
  }
  const next = `${JSON.stringify(settings, null, 2)}\n`;
  if (next === before) return { path, outcome: 'unchanged', createdFile: false, createdDir: false };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, next);
  return { path, outcome: before === undefined ? 'created' : 'updated', createdFile: before === undefined, createdDir };
}

/** Takes out exactly the fleet's hooks; a file (and folder) the install created goes when nothing else is left in it. */
export function uninstallClaudeHooks(root: string, scope: ClaudeSettingsScope, created: { file: boolean; dir: boolean }): { path: string; outcome: 'removed' | 'absent' } {
  const path = claudeSettingsPath(root, scope);
  if (!existsSync(path)) return { path, outcome: 'absent' };
  const settings = parseSettings(path, readFileSync(path, 'utf8'));
  const hooks = settings.hooks;
  if (!hooks || !Object.values(hooks).some((entries) => entries.some((entry) => entry.hooks?.some((hook) => isOurs(hook))))) return { path, outcome: 'absent' };
  for (const [event, entries] of Object.entries(hooks)) {
    const kept = entries.flatMap((entry) => {
      if (!entry.hooks?.some((hook) => isOurs(hook))) return [entry];
      const rest = entry.hooks.filter((hook) => !isOurs(hook));
      return rest.length > 0 ? [{ ...entry, hooks: rest }] : [];
    });
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (Object.keys(hooks).length === 0) delete settings.hooks;
  if (created.file && Object.keys(settings).length === 0) {
    unlinkSync(path);
    if (created.dir && readdirSync(dirname(path)).length === 0) rmdirSync(dirname(path));
  } else {
    writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`);
  }
  return { path, outcome: 'removed' };
}

interface Settings {
  hooks?: Record<string, MatcherEntry[]>;
  [key: string]: unknown;
}

function parseSettings(path: string, text: string): Settings {
  return parseConfigJson<Settings>(path, text, settingsSchema, "Claude Code settings");
}
