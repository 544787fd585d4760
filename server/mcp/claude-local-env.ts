import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { fleetHome } from '../../contracts/defaults.js';
import { claudeSettingsPath } from '../hooks/claude-settings.js';
import { parseConfigJson } from '../hooks/config-json.js';

// This user's part of the Claude Code set-up, kept out of the committed .mcp.json (DESIGN §11):
// FLEET_HOME, when it is not the default, in the `env` of .claude/settings.local.json, which
// Claude Code applies to its sessions and which is never committed.

type Outcome = 'created' | 'updated' | 'unchanged' | 'removed' | 'absent';
type Settings = Record<string, unknown>;

const settingsSchema = z.looseObject({ env: z.record(z.string(), z.string()).optional() });

/** Writes FLEET_HOME into the local settings' env when `home` is not the default (takes out what it wrote before, if it now is). */
export function writeLocalHome(root: string, home: string, env: NodeJS.ProcessEnv, writtenBefore: boolean): { outcome: Outcome; written: boolean } {
  const standard = resolvePath(fleetHome(undefined, env.HOME ?? homedir())) === resolvePath(home);
  if (standard && !writtenBefore) return { outcome: 'absent', written: false };
  const outcome = editLocalEnv(claudeSettingsPath(root, 'local'), (vars) => {
    if (standard) delete vars.FLEET_HOME;
    else vars.FLEET_HOME = home;
  });
  return { outcome: standard && outcome === 'updated' ? 'removed' : outcome, written: !standard };
}

/**
 * Takes out the FLEET_HOME `fleet init` wrote (only while it still names this home: a value the
 * user changed stays); the settings file, when writing it created it and it is left empty, goes (with its folder, if empty).
 */
export function removeLocalHome(root: string, home: string, createdFile: boolean): Outcome {
  const path = claudeSettingsPath(root, 'local');
  const outcome = editLocalEnv(path, (vars) => {
    if (vars.FLEET_HOME === home) delete vars.FLEET_HOME;
  });
  if (outcome !== 'updated') return 'absent';
  if (createdFile && readFileSync(path, 'utf8') === EMPTY) {
    unlinkSync(path);
    if (readdirSync(dirname(path)).length === 0) rmdirSync(dirname(path));
  }
  return 'removed';
}

/** What an emptied settings file holds. */
const EMPTY = '{}\n';

/** Whether `fleet` on this PATH is the launcher `.mcp.json` relies on. */
export function onPath(launcher: string, env: NodeJS.ProcessEnv): boolean {
  const name = basename(launcher);
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, name)) && resolvePath(dir, name) === resolvePath(launcher));
}

/** Edits the `env` of the settings file, keeping everything else as written; an env left empty goes. */
function editLocalEnv(path: string, edit: (vars: Record<string, unknown>) => void): Outcome {
  const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const settings = before !== undefined ? parseConfigJson<Settings>(path, before, settingsSchema, 'Claude Code settings') : {};
  const vars: Record<string, unknown> = { ...((settings.env as Record<string, unknown> | undefined) ?? {}) };
  edit(vars);
  if (Object.keys(vars).length > 0) settings.env = vars;
  else delete settings.env;
  if (before === undefined && Object.keys(settings).length === 0) return 'unchanged';
  const next = `${JSON.stringify(settings, null, 2)}\n`;
  if (next === before) return 'unchanged';
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, next);
  return before === undefined ? 'created' : 'updated';
}

/** The path with symlinks resolved where it exists (a home reached through a link is the same home). */
function resolvePath(...segments: string[]): string {
  const path = resolve(...segments);
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
