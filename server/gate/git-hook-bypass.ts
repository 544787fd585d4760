import { spawnSync } from 'node:child_process';
import { parseCommandLine } from './command-line.js';
import type { ShellWord } from './shell-word.js';
import { ASK_OPERATOR } from './ask-operator.js';

/** What a git command does past the fleet's pre-commit hook: why, and the command as written. */
export interface HookBypass {
  what: string;
  instead: string;
}

/** How the command sets git configuration for itself: `GIT_CONFIG_KEY_<n>`/`GIT_CONFIG_VALUE_<n>` and `GIT_CONFIG_PARAMETERS` assignments. */
export type CommandConfig = { name: string; value: string }[];

const COMMIT_VALUE_OPTIONS = ['-m', '-F', '-C', '-c', '-t', '--message', '--file', '--author', '--date', '--template', '--reuse-message', '--fixup', '--squash', '--cleanup'];
/** git's options before the subcommand that take the next word as their value. */
const GLOBAL_VALUE_OPTIONS = ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix'];
/**
 * git accepts any unambiguous prefix of a long option (parse-options): `--no-verif` is
 * `--no-verify`. Down to `--no-veri` no other option of commit, merge or push shares the prefix
 * (`--no-ver` could be `--no-verbose`, and git refuses it as ambiguous).
 */
const NO_VERIFY = '--no-verify';
const NO_VERIFY_SHORTEST = '--no-veri'.length;
/** Aliases expanding to aliases are followed this deep (git stops at a loop). */
const MAX_ALIAS_DEPTH = 4;
/**
 * Reads of git's configuration per command, and the time they may take in all: the parser's thread
 * must answer within 3 s, or the command is read as tokens only (and its identity rules with it).
 * git answers in milliseconds; a read that does not (a config include that never ends) is refused.
 */
const MAX_ALIAS_LOOKUPS = 8;
const ALIAS_LOOKUPS_MS = 1500;
const HOOKS_PATH = /^core\.hookspath(=|$)/i;
const MOVES_HOOKS: HookBypass = { what: 'changing core.hooksPath (it moves git past the fleet\'s pre-commit hook)', instead: ASK_OPERATOR };

let builtins: Set<string> | undefined;

/**
 * What in a git command (`argv` run in `cwd`) skips the pre-commit hook unrecorded: `--no-verify`
 * and its abbreviations, `commit -n`, core.hooksPath set by `-c`, `--config-env` or `git config`,
 * and an alias hiding any of them (`-c alias.ci='commit -n'`, the environment's,
 * and, when `local`, the repository's and the user's git configuration, as git itself reads it).
 */
/** What one command may spend reading git's configuration, over all the git commands it runs. */
export interface AliasBudget {
  left: number;
  until: number;
}

export function aliasBudget(): AliasBudget {
  return { left: MAX_ALIAS_LOOKUPS, until: Date.now() + ALIAS_LOOKUPS_MS };
}

export function gitHookBypasses(argv: readonly ShellWord[], cwd: string, config: CommandConfig, local: boolean, lookups: AliasBudget): HookBypass[] {
  return gitCommand(argv.map((w) => w.text), cwd, { config, local, lookups }, 0);
}

/** core.hooksPath set for every git the command runs, through the environment (GIT_CONFIG_KEY_<n>, GIT_CONFIG_PARAMETERS). */
export function environmentBypasses(config: CommandConfig): HookBypass[] {
  return config.some(({ name, value }) => (/^GIT_CONFIG_KEY_\d+$/.test(name) && HOOKS_PATH.test(value)) || (name === 'GIT_CONFIG_PARAMETERS' && /core\.hookspath/i.test(value))) ? [MOVES_HOOKS] : [];
}

interface Reading {
  config: CommandConfig;
  local: boolean;
  /** Reads of git's configuration left for the whole command. */
  lookups: AliasBudget;
}

function gitCommand(texts: readonly string[], cwd: string, reading: Reading, depth: number): HookBypass[] {
  const bypasses: HookBypass[] = [];
  const globals: string[] = [];
  const settings: string[] = [];
  let i = 1;
  for (; i < texts.length && texts[i]!.startsWith('-'); i++) {
    const option = texts[i]!;
    globals.push(option);
    if (option === '-c' || option === '--config-env') settings.push(texts[i + 1] ?? '');
    if (option.startsWith('--config-env=')) settings.push(option.slice('--config-env='.length));
    if (GLOBAL_VALUE_OPTIONS.includes(option) && i + 1 < texts.length) globals.push(texts[++i]!);
  }
  const sub = texts[i];
  const args = texts.slice(i + 1);
  if (settings.some((setting) => HOOKS_PATH.test(setting)) || (sub === 'config' && args.some((arg) => HOOKS_PATH.test(arg)))) bypasses.push(MOVES_HOOKS);
  if (sub === undefined) return bypasses;
  const line = parseCommandLine(args.map((text) => ({ text, literal: true, glob: false, unanchored: false })), COMMIT_VALUE_OPTIONS);
  const noVerify = [...line.options.keys()].some((name) => name.length >= NO_VERIFY_SHORTEST && NO_VERIFY.startsWith(name));
  if (noVerify || (sub === 'commit' && line.flags.has('n'))) {
    bypasses.push({ what: `git ${sub} --no-verify (it skips the fleet's pre-commit check)`, instead: 'commit without it: the hook names what is refused and how to claim it' });
  }
  if (depth >= MAX_ALIAS_DEPTH || isBuiltin(sub)) return bypasses;
  const alias = reading.lookups.left > 0 && Date.now() < reading.lookups.until ? aliasOf(sub, settings, globals, cwd, reading) : 'unread';
  if (alias === 'unread') {
    // Unread, an alias could hide `commit -n`: refused rather than let through unseen.
    bypasses.push({ what: `git ${sub}: the gate could not read whether it is an alias (at most ${MAX_ALIAS_LOOKUPS} reads of git's configuration, ${ALIAS_LOOKUPS_MS / 1000} s, per command)`, instead: 'run fewer git commands at once, or spell the git command out' });
    return bypasses;
  }
  if (alias === undefined) return bypasses;
  const expanded = alias.startsWith('!') ? shellAliasCommands(alias.slice(1)) : [['git', ...globals, ...splitAlias(alias), ...args]];
  for (const found of expanded.flatMap((command) => gitCommand(command, cwd, reading, depth + 1))) {
    bypasses.push({ ...found, what: `git ${sub}, an alias of \`${alias.slice(0, 80)}\`: ${found.what}` });
  }
  return bypasses;
}

/** git's own commands, which no alias replaces (git ignores an alias named as one). */
function isBuiltin(sub: string): boolean {
  if (builtins === undefined) {
    const listed = spawnSync('git', ['--list-cmds=builtins'], { encoding: 'utf8', timeout: ALIAS_LOOKUPS_MS });
    builtins = new Set(listed.status === 0 ? listed.stdout.split('\n').filter(Boolean) : []);
  }
  return builtins.has(sub);
}

/**
 * The alias `sub` expands to: set by the command (`-c alias.X=…`, GIT_CONFIG_KEY/VALUE), else, when
 * the repository is the plane's to read, what `git config` answers with the command's own options
 * and configuration (the repository's, the worktree's, the user's and the system's files, includes).
 */
function aliasOf(sub: string, settings: readonly string[], globals: readonly string[], cwd: string, { config, local, lookups }: Reading): string | 'unread' | undefined {
  const key = `alias.${sub}`.toLowerCase();
  const fromOptions = settings.map((setting) => /^([^=]*)=(.*)$/s.exec(setting)).filter((m) => m !== null && m[1]!.toLowerCase() === key).pop();
  if (fromOptions) return fromOptions[2];
  const envKeys = config.filter(({ name, value }) => /^GIT_CONFIG_KEY_\d+$/.test(name) && value.toLowerCase() === key);
  const fromEnv = envKeys.map(({ name }) => config.find((c) => c.name === name.replace('KEY', 'VALUE'))?.value).filter((v) => v !== undefined).pop();
  if (fromEnv !== undefined) return fromEnv;
  if (!local) return undefined;
  lookups.left -= 1;
  const env = { ...process.env, ...Object.fromEntries(config.map(({ name, value }) => [name, value])), GIT_TERMINAL_PROMPT: '0' };
  const read = spawnSync('git', [...globals, 'config', '--get', `alias.${sub}`], { cwd, env, encoding: 'utf8', timeout: Math.max(1, lookups.until - Date.now()) });
  // Killed at the deadline: nothing says what it would have answered.
  if (read.signal !== null) return 'unread';
  return read.status === 0 && read.stdout.trim() !== '' ? read.stdout.trim() : undefined;
}

/** An alias's words as git splits them (quotes group, backslash escapes). */
function splitAlias(alias: string): string[] {
  return [...alias.matchAll(/"((?:\\.|[^"\\])*)"|'([^']*)'|((?:\\.|[^\s'"])+)/g)].map((m) => (m[1] ?? m[2] ?? m[3]!).replace(/\\(.)/g, '$1'));
}

/** The git commands a shell alias (`!…`) runs, best effort: its words from each `git` to the next separator. */
function shellAliasCommands(script: string): string[][] {
  const words = splitAlias(script.replace(/([;&|(){}])/g, ' $1 '));
  const commands: string[][] = [];
  for (let at = words.indexOf('git'); at >= 0; at = words.indexOf('git', at + 1)) {
    const end = words.findIndex((word, k) => k > at && /^[;&|(){}]+$/.test(word));
    commands.push(words.slice(at, end < 0 ? undefined : end));
  }
  return commands;
}
