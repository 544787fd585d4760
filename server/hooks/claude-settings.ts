import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { CLAUDE_MCP_TOOLS, CLAUDE_SHELL_TOOL, CLAUDE_WRITE_TOOLS } from './claude-pre-tool-use.js';
import { hookLauncherBeside } from './launcher.js';

/** In both the command installed now (bin/fleet-hook claude-pre-tool-use --home …) and the one before it (bin/fleet hook claude-pre-tool-use --home …). */
const HOOK_VERB = ' claude-pre-tool-use --home ';
/** The file tools, the shell, and every MCP tool (the hook checks those whose input names a path to write). */
export const CLAUDE_MATCHER = [...CLAUDE_WRITE_TOOLS, CLAUDE_SHELL_TOOL, CLAUDE_MCP_TOOLS].join('|');

const hookEntrySchema = z.looseObject({ command: z.string().optional() });
const matcherEntrySchema = z.looseObject({ matcher: z.string().optional(), hooks: z.array(hookEntrySchema).optional() });
const settingsSchema = z.looseObject({ hooks: z.looseObject({ PreToolUse: z.array(matcherEntrySchema).optional() }).optional() });

export function claudeSettingsPath(root: string): string {
  return join(root, '.claude', 'settings.json');
}

/** The lean hook runner's launcher beside `launcher` (it decides through the plane itself, without loading the CLI), else `fleet hook`. */
export function claudeHookCommand(home: string, launcher: string): string {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const lean = hookLauncherBeside(launcher);
  return existsSync(lean) ? `${quote(lean)}${HOOK_VERB}${quote(home)}` : `${quote(launcher)} hook${HOOK_VERB}${quote(home)}`;
}

const isOurs = (hook: { command?: string | undefined }) => hook.command?.includes(HOOK_VERB) === true;

/**
 * Adds the PreToolUse hook on Claude Code's write tools, its shell and MCP tools to the repository's .claude/settings.json,
 * keeping everything else in it, in its order. Run again, it replaces its own entry in place.
 */
export function installClaudeHook(root: string, home: string, launcher: string): { path: string; outcome: 'created' | 'updated' | 'unchanged'; createdFile: boolean; createdDir: boolean } {
  const path = claudeSettingsPath(root);
  const createdDir = !existsSync(dirname(path));
  const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const settings = before !== undefined ? parseSettings(path, before) : {};
  const entry = { matcher: CLAUDE_MATCHER, hooks: [{ type: 'command', command: claudeHookCommand(home, launcher), timeout: 30 }] };
  const hooks = (settings.hooks ??= {});
  const entries = (hooks.PreToolUse ??= []);
  const at = entries.findIndex((e) => e.hooks?.some(isOurs));
  if (at >= 0) {
    const others = (entries[at]!.hooks ?? []).filter((hook) => !isOurs(hook));
    // Our entry is ours alone; a hook someone added beside ours keeps an entry of its own.
    entries.splice(at, 1, entry, ...(others.length > 0 ? [{ ...entries[at]!, hooks: others }] : []));
  } else {
    entries.push(entry);
  }
  const next = `${JSON.stringify(settings, null, 2)}\n`;
  if (next === before) return { path, outcome: 'unchanged', createdFile: false, createdDir: false };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, next);
  return { path, outcome: before === undefined ? 'created' : 'updated', createdFile: before === undefined, createdDir };
}

/** Takes out exactly the fleet hook; a file (and folder) the install created goes when nothing else is left in it. */
export function uninstallClaudeHook(root: string, created: { file: boolean; dir: boolean }): { path: string; outcome: 'removed' | 'absent' } {
  const path = claudeSettingsPath(root);
  if (!existsSync(path)) return { path, outcome: 'absent' };
  const settings = parseSettings(path, readFileSync(path, 'utf8'));
  const entries = settings.hooks?.PreToolUse;
  if (!settings.hooks || !entries?.some((entry) => entry.hooks?.some(isOurs))) return { path, outcome: 'absent' };
  const kept = entries.flatMap((entry) => {
    if (!entry.hooks?.some(isOurs)) return [entry];
    const hooks = entry.hooks.filter((hook) => !isOurs(hook));
    return hooks.length > 0 ? [{ ...entry, hooks }] : [];
  });
  if (kept.length > 0) settings.hooks.PreToolUse = kept;
  else delete settings.hooks.PreToolUse;
  if (Object.keys(settings.hooks).length === 0) delete settings.hooks;
  if (created.file && Object.keys(settings).length === 0) {
    unlinkSync(path);
    if (created.dir && readdirSync(dirname(path)).length === 0) rmdirSync(dirname(path));
  } else {
    writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`);
  }
  return { path, outcome: 'removed' };
}

interface HookEntry {
  command?: string;
  [key: string]: unknown;
}
interface MatcherEntry {
  matcher?: string;
  hooks?: HookEntry[];
  [key: string]: unknown;
}
interface Settings {
  hooks?: { PreToolUse?: MatcherEntry[]; [event: string]: unknown };
  [key: string]: unknown;
}

/** Checked against the shape Claude Code reads, but kept as written: key order and unknown keys survive. */
function parseSettings(path: string, text: string): Settings {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${(error as Error).message}): fix it, then run this again; nothing was changed`);
  }
  const checked = settingsSchema.safeParse(raw);
  if (!checked.success) throw new Error(`${path} does not look like Claude Code settings (${checked.error.issues[0]?.message}): fix it, then run this again; nothing was changed`);
  return raw as Settings;
}
