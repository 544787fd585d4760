import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { hooksDirectory } from './git.js';
import { shellQuote as quote } from './hook-command.js';
import { hookLauncherBeside } from './launcher.js';
import { findBlock, removeBlock, upsertBlock, type Markers } from './marked-block.js';

const MANAGED_LINE = '# fleet-coordination: managed pre-commit hook';
export const CHAINED_NAME = 'pre-commit.fleet-chained';
const BLOCK: Markers = { begin: '# >>> fleet-coordination >>>', end: '# <<< fleet-coordination <<<' };
const CREATED_LINE = '# (fleet install-hooks created this file; fleet uninstall-hooks deletes it again)';

export type HookTarget = { mode: 'file' | 'husky'; path: string };

/**
 * Where the pre-commit hook goes. Git's own hooks directory (or core.hooksPath) gets a whole file
 * that runs the fleet check and then the hook it replaced. Husky owns its hooks directory and
 * regenerates `.husky/_`, so there the check goes into the user's `.husky/pre-commit` as a block.
 */
export function gitHookTarget(root: string): HookTarget {
  const dir = hooksDirectory(root);
  if (basename(dir) === '_' && basename(dirname(dir)) === '.husky') return { mode: 'husky', path: join(dirname(dir), 'pre-commit') };
  if (basename(dir) === '.husky') return { mode: 'husky', path: join(dir, 'pre-commit') };
  return { mode: 'file', path: join(dir, 'pre-commit') };
}


/**
 * The lines that run the check on this FLEET_HOME unless the environment names another: the lean
 * runner beside the stable launcher (bin/fleet-hook, it loads none of the CLI), else the launcher,
 * else `fleet` on PATH.
 */
function checkLines(home: string, launcher: string): string {
  return [
    `fleet_hook=${quote(hookLauncherBeside(launcher))}; fleet_bin=${quote(launcher)}; [ -x "$fleet_bin" ] || fleet_bin=fleet`,
    `fleet_home=\${FLEET_HOME:-${quote(home)}}`,
    'if [ -x "$fleet_hook" ]; then "$fleet_hook" git-pre-commit --home "$fleet_home" || exit $?; else "$fleet_bin" hook git-pre-commit --home "$fleet_home" || exit $?; fi',
  ].join('\n');
}

function managedScript(home: string, launcher: string): string {
  return [
    '#!/bin/sh',
    MANAGED_LINE,
    '# Installed by `fleet install-hooks`; `fleet uninstall-hooks` removes it and puts back the hook it chained.',
    "# Refuses a commit whose staged paths are outside the committing agent's territory (FLEET_AS names",
    '# the agent; FLEET_OVERRIDE="reason" lets it through and is recorded), then runs the chained hook.',
    checkLines(home, launcher),
    `chained="$(dirname "$0")/${CHAINED_NAME}"`,
    'if [ -x "$chained" ]; then exec "$chained" "$@"; fi',
    '',
  ].join('\n');
}

export type InstallOutcome = 'created' | 'chained' | 'updated' | 'unchanged';

export function installGitHook(root: string, home: string, launcher: string): { target: HookTarget; outcome: InstallOutcome } {
  const target = gitHookTarget(root);
  mkdirSync(dirname(target.path), { recursive: true });
  const existing = existsSync(target.path) ? readFileSync(target.path, 'utf8') : undefined;
  if (target.mode === 'husky') {
    const block = existing !== undefined ? findBlock(existing, BLOCK) : undefined;
    const created = existing === undefined || (block !== undefined && existing.slice(block.start, block.end).includes(CREATED_LINE));
    const body = `${created ? `${CREATED_LINE}\n` : ''}${checkLines(home, launcher)}`;
    const next = upsertBlock(existing ?? '#!/bin/sh\n', BLOCK, body, 'top');
    return { target, outcome: write(target.path, existing, next, existing === undefined ? 'created' : block ? 'updated' : 'chained') };
  }
  const script = managedScript(home, launcher);
  if (existing === undefined || existing.includes(MANAGED_LINE)) return { target, outcome: write(target.path, existing, script, existing === undefined ? 'created' : 'updated') };
  const chained = join(dirname(target.path), CHAINED_NAME);
  if (existsSync(chained)) {
    throw new Error(`${target.path} is not fleet's and ${chained} already exists: a hook was installed over fleet's. Move one of them away, then run fleet install-hooks again`);
  }
  renameSync(target.path, chained);
  writeFileSync(target.path, script, { mode: 0o755 });
  chmodSync(target.path, 0o755);
  return { target, outcome: 'chained' };
}

export type UninstallOutcome = 'removed' | 'restored' | 'absent';

export function uninstallGitHook(root: string): { target: HookTarget; outcome: UninstallOutcome } {
  const target = gitHookTarget(root);
  const chained = join(dirname(target.path), CHAINED_NAME);
  if (!existsSync(target.path)) return { target, outcome: 'absent' };
  const existing = readFileSync(target.path, 'utf8');
  if (existing.includes(MANAGED_LINE)) {
    unlinkSync(target.path);
    if (existsSync(chained)) {
      renameSync(chained, target.path);
      return { target, outcome: 'restored' };
    }
    return { target, outcome: 'removed' };
  }
  const block = findBlock(existing, BLOCK);
  if (!block) return { target, outcome: 'absent' };
  const created = existing.slice(block.start, block.end).includes(CREATED_LINE);
  const rest = removeBlock(existing, BLOCK).content;
  if (created && rest.replace(/^#!.*\n?/, '').trim() === '') unlinkSync(target.path);
  else writeFileSync(target.path, rest);
  return { target, outcome: 'removed' };
}

function write(path: string, existing: string | undefined, next: string, outcome: InstallOutcome): InstallOutcome {
  if (existing === next) return 'unchanged';
  writeFileSync(path, next, { mode: 0o755 });
  chmodSync(path, 0o755);
  return outcome;
}
