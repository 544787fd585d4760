import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { parseConfigJson } from './config-json.js';
import { failClosed, hookCommand, shellQuote as quote } from './hook-command.js';
import { codexConfigPath } from '../mcp/runtime-config.js';
import { CODEX_MATCHER, CODEX_POST_MATCHER } from './codex-pre-tool-use.js';
import { placeOurHook } from './hook-groups.js';

/**
 * Where the fleet puts Codex's hooks: the user's $CODEX_HOME/hooks.json, never the repository's
 * .codex/hooks.json. The command names one user's FLEET_HOME and launcher (absolute paths that must
 * not reach teammates' clones), and a repository file would be missing from the other worktrees the
 * agents work in. Codex has no per-directory matcher, so each entry carries `--root REPO` and the
 * hook answers only for sessions in that repository's worktrees.
 */
export function codexHooksPath(env: NodeJS.ProcessEnv): string {
  return join(dirname(codexConfigPath(env)), 'hooks.json');
}

/** The lean runner (bin/fleet-hook VERB --home H --root R); PreToolUse refuses when it cannot run at all (hook-command.ts). */
export function codexHookCommand(launcher: string, home: string, root: string, verb: string, path: string): string {
  const command = hookCommand(launcher, verb, `--home ${quote(home)} --root ${quote(root)}`);
  return verb === 'codex-pre-tool-use' ? failClosed(command, launcher, path) : command;
}

/** The fleet's Codex hooks, each on its event (SessionStart with no matcher: startup, resume and clear alike). */
const CODEX_HOOKS = [
  { event: 'PreToolUse', verb: 'codex-pre-tool-use', matcher: CODEX_MATCHER },
  { event: 'PostToolUse', verb: 'codex-post-tool-use', matcher: CODEX_POST_MATCHER },
  { event: 'SessionStart', verb: 'codex-session-start' },
  // Observes the approval prompt, never answers it; an event of its own, so the others keep their places.
  { event: 'PermissionRequest', verb: 'codex-permission-request' },
] as const;

const hookSchema = z.looseObject({ command: z.string().optional() });
const groupSchema = z.looseObject({ matcher: z.string().optional(), hooks: z.array(hookSchema).optional() });
const fileSchema = z.looseObject({ hooks: z.record(z.string(), z.array(groupSchema)).optional() });
type HooksFile = z.infer<typeof fileSchema>;
type Group = z.infer<typeof groupSchema>;

/** The fleet's Codex hook verbs, as the lean runner's command names them and the `fleet hook` one before it. */
const CODEX_VERB = / codex-(pre-tool-use|post-tool-use|session-start|permission-request) --home /;
/** Ours for this repository: a fleet Codex hook verb with this `--root` (another repository's entry is left alone). */
const oursFor = (root: string) => (hook: { command?: string | undefined }) => hook.command !== undefined && CODEX_VERB.test(hook.command) && hook.command.endsWith(` --root ${quote(root)}`);

/** The repository a fleet Codex hook command answers for (its `--root`), or undefined for any other command. */
function fleetHookRoot(command: string | undefined): string | undefined {
  if (command === undefined || !CODEX_VERB.test(command)) return undefined;
  const quoted = / --root '((?:[^']|'\\'')*)'$/.exec(command)?.[1];
  return quoted?.replace(/'\\''/g, "'");
}

/** One fleet hook as it stands in hooks.json: its event, its place (Codex keys trust by it), the entry itself. */
export interface PlacedCodexHook {
  event: string;
  group: number;
  index: number;
  matcher: string | undefined;
  hook: Record<string, unknown> & { command: string };
  root: string;
}

/** The fleet's hooks in $CODEX_HOME/hooks.json (any repository's), each where it stands; none when there is no file. */
export function placedFleetCodexHooks(env: NodeJS.ProcessEnv): PlacedCodexHook[] {
  const path = codexHooksPath(env);
  if (!existsSync(path)) return [];
  const file = parseHooksFile(path, readFileSync(path, 'utf8'));
  return Object.entries(file.hooks ?? {}).flatMap(([event, groups]) =>
    groups.flatMap((group, groupIndex) =>
      (group.hooks ?? []).flatMap((hook, index) => {
        const root = fleetHookRoot(hook.command);
        return root === undefined ? [] : [{ event, group: groupIndex, index, matcher: group.matcher, hook: hook as PlacedCodexHook['hook'], root }];
      }),
    ),
  );
}

/**
 * Adds (or replaces in place) this repository's entries (PreToolUse, PostToolUse, SessionStart,
 * PermissionRequest: a new one goes at the end of its event's groups),
 * keeping every other hook in the file. Run again with nothing changed it writes the same bytes, so
 * the trust the user gave each hook (kept by Codex per position and hash) still holds.
 */
export function installCodexHooks(root: string, home: string, launcher: string, env: NodeJS.ProcessEnv): { path: string; outcome: 'created' | 'updated' | 'unchanged'; createdFile: boolean } {
  const path = codexHooksPath(env);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const file = before !== undefined ? parseHooksFile(path, before) : {};
  const events = (file.hooks ??= {});
  for (const hook of CODEX_HOOKS) {
    const command = { type: 'command', command: codexHookCommand(launcher, home, root, hook.verb, path), timeout: 30 };
    events[hook.event] = placeOurHook(events[hook.event] ?? [], oursFor(root), 'matcher' in hook ? hook.matcher : undefined, command);
  }
  const next = `${JSON.stringify(file, null, 2)}\n`;
  if (next === before) return { path, outcome: 'unchanged', createdFile: false };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, next);
  return { path, outcome: before === undefined ? 'created' : 'updated', createdFile: before === undefined };
}

/**
 * Takes out exactly this repository's fleet hooks; a file the install created goes when nothing
 * else is left in it. `moved` counts the other hooks that now stand at another place: Codex keys
 * the trust it keeps by place, so it will ask to trust those again.
 */
export function uninstallCodexHooks(root: string, env: NodeJS.ProcessEnv, createdFile: boolean): { path: string; outcome: 'removed' | 'absent'; moved: number } {
  const path = codexHooksPath(env);
  if (!existsSync(path)) return { path, outcome: 'absent', moved: 0 };
  const file = parseHooksFile(path, readFileSync(path, 'utf8'));
  const events = file.hooks ?? {};
  if (!Object.values(events).some((groups) => groups.some((group) => group.hooks?.some(oursFor(root))))) return { path, outcome: 'absent', moved: 0 };
  let moved = 0;
  for (const [event, groups] of Object.entries(events)) {
    const kept = withoutOurs(groups, root);
    moved += [...places(kept)].filter(([hook, place]) => places(groups).get(hook) !== place).length;
    if (kept.length > 0) events[event] = kept;
    else delete events[event];
  }
  if (Object.keys(events).length === 0) delete file.hooks;
  if (createdFile && Object.keys(file).length === 0) unlinkSync(path);
  else writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
  return { path, outcome: 'removed', moved };
}

/** Each hook entry with its place, `group:index`, as Codex's trust key names it. */
function places(groups: Group[]): Map<unknown, string> {
  return new Map(groups.flatMap((group, at) => (group.hooks ?? []).map((hook, index) => [hook, `${at}:${index}`] as const)));
}

/** The groups with our hooks taken out; a group left with none goes. */
function withoutOurs(groups: Group[], root: string): Group[] {
  return groups.flatMap((group) => {
    if (!group.hooks?.some(oursFor(root))) return [group];
    const hooks = group.hooks.filter((hook) => !oursFor(root)(hook));
    return hooks.length > 0 ? [{ ...group, hooks }] : [];
  });
}

function parseHooksFile(path: string, text: string): HooksFile {
  return parseConfigJson<HooksFile>(path, text, fileSchema, "Codex's hooks.json");
}
