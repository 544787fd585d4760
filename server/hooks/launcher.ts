import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOOK_FRONT_FILE, HOOK_FRONT_SCRIPT } from '../../contracts/hook-front.js';
import { HOOK_RUNNER_BUNDLE, launcherFileName } from '../../contracts/launchers.js';

/** The stable launcher DESIGN §2 names: hooks and the configs of `fleet init` call it. */
export function launcherPath(home: string): string {
  return join(home, 'bin', launcherFileName('fleet'));
}

/**
 * The launcher of the lean hook runner, beside `launcher`: the installed Claude Code hook calls it
 * (it starts in about the time of a bare Node, where the whole CLI takes several times that).
 */
export function hookLauncherBeside(launcher: string): string {
  return join(dirname(launcher), launcherFileName('fleet-hook'));
}

/** The hook front beside `launcher` (contracts/hook-front.ts): the installed PreToolUse hooks run it where it is. */
export function hookFrontBeside(launcher: string): string {
  return join(dirname(launcher), HOOK_FRONT_FILE);
}

/** The lean hook runner that goes with `cli`: dist/fleet-hook.cjs beside the CLI bundle, else this checkout's compiled one. */
export function hookRunnerBeside(cli: string): string {
  if (basename(cli) === 'fleet.cjs') return join(dirname(cli), HOOK_RUNNER_BUNDLE);
  return fileURLToPath(new URL('./lean/fleet-hook.js', import.meta.url));
}

/**
 * Makes sure FLEET_HOME/bin/fleet and its sibling bin/fleet-hook exist (the latter where the CLI
 * has its lean hook runner beside it), and beside the runner, on POSIX, the hook front that is this
 * version's (rewritten when it differs: it names no path of its own). The VS Code extension
 * installs (and updates) its own; where none exists yet, this writes ones that run this checkout's CLI (and lean hook runner) with this
 * Node. An existing launcher is never replaced. Returns the path of bin/fleet and whether it was
 * written now.
 */
export function ensureLauncher(home: string): { path: string; created: boolean } {
  const path = launcherPath(home);
  const cli = existsSync(path) ? undefined : cliEntry();
  if (cli !== undefined) writeLauncher(path, cli);
  const hook = hookLauncherBeside(path);
  const runner = hookRunnerBeside(cli ?? cliEntry());
  // A CLI bundle from before the lean runner has none beside it: the hook then calls bin/fleet.
  if (!existsSync(hook) && existsSync(runner)) writeLauncher(hook, runner);
  if (existsSync(hook) && process.platform !== 'win32') writeHookFront(hookFrontBeside(path));
  return { path, created: cli !== undefined };
}

function writeHookFront(path: string): void {
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (existing === HOOK_FRONT_SCRIPT) return;
  writeFileSync(path, HOOK_FRONT_SCRIPT, { mode: 0o755 });
  chmodSync(path, 0o755);
}

function writeLauncher(path: string, script: string): void {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(
    path,
    process.platform === 'win32'
      ? `@echo off\r\nrem Written by fleet install-hooks / fleet init; the VS Code extension replaces it with its own.\r\n"${process.execPath}" "${script}" %*\r\n`
      : `#!/bin/sh\n# Written by fleet install-hooks / fleet init; the VS Code extension replaces it with its own.\nexec ${quote(process.execPath)} ${quote(script)} "$@"\n`,
    { mode: 0o755 },
  );
  chmodSync(path, 0o755);
}

/**
 * The CLI that is running now (bin/fleet.js, out/server/cli/main.js, or the bundled dist/fleet.cjs),
 * else this checkout's compiled CLI next to this module.
 */
function cliEntry(): string {
  const running = process.argv[1];
  if (running && /^(fleet|fleet\.c?js|main\.js)$/.test(basename(running)) && existsSync(running)) return realpathSync(running);
  return realpathSync(fileURLToPath(new URL('../cli/main.js', import.meta.url)));
}
