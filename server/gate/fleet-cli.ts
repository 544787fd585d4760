import { closeSync, openSync, readFileSync, readSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { ShellWord } from './shell-word.js';

/** The fleet's npm package: its bin, compiled CLI and bundle start the CLI. */
const FLEET_PACKAGE = 'fleet-coordination';
/** Where the CLI starts in the package, beside its `bin` entries: the compiled main and the bundle (tools/bundle.mjs). */
const CLI_ENTRIES = ['out/server/cli/main.js', 'dist/fleet.cjs'];
/** A file named as the CLI's entry points are, when its disk is not the plane's to read (a remote agent's) or it is not there. */
const CLI_BY_NAME = /(^|\/)(fleet|fleet\.c?js|cli\/main\.js)$/;
/** Interpreters that run a script file named by their first operand: the CLI is a Node script, the launcher a shell script. */
const SCRIPT_RUNNERS = /^(node|nodejs|bun|sh|bash|dash|zsh)$/;
/** Node's options that take the next word as their value (the script comes after them). */
const RUNNER_VALUE_OPTIONS = ['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--env-file', '--input-type'];
/** Package runners that start a package's bin by name: `npx fleet …`, `npm exec fleet …`, `pnpm dlx …`. */
const PACKAGE_RUNNERS = /^(npx|pnpx|bunx)$/;
const PACKAGE_RUNNER_VERBS = /^(exec|x|dlx)$/;
/** A launcher that starts the CLI is a short script: its head is read, no more. */
const LAUNCHER_HEAD_BYTES = 4096;

/**
 * The arguments of the fleet CLI when `argv` runs it, else undefined. The CLI is recognised by what
 * runs, not by the word `fleet`: a program (or the script an interpreter runs) whose real path is a
 * fleet CLI entry point or a launcher that execs one, whatever a link or copy is called; a package
 * runner starting the `fleet` bin. `local`: the command runs on the plane's machine, so its files
 * may be read; otherwise only names are judged.
 */
export function fleetCliArguments(argv: readonly ShellWord[], cwd: string, homes: readonly string[], local: boolean): ShellWord[] | undefined {
  const program = argv[0]?.text ?? '';
  const name = basename(program);
  if (name === 'fleet' || (program.includes('/') && startsCli(program, cwd, homes, local))) return argv.slice(1);
  if (SCRIPT_RUNNERS.test(name)) {
    const script = firstOperand(argv, 1);
    if (script !== undefined && !argv.slice(1, script).some((w) => /^-(e|p|c)$|^--(eval|print)/.test(w.text)) && startsCli(argv[script]!.text, cwd, homes, local)) return argv.slice(script + 1);
    return undefined;
  }
  const verb = PACKAGE_RUNNERS.test(name) ? 0 : /^(npm|pnpm|yarn)$/.test(name) && PACKAGE_RUNNER_VERBS.test(argv[1]?.text ?? '') ? 1 : undefined;
  if (verb === undefined) return undefined;
  const bin = firstOperand(argv, verb + 1);
  const named = bin === undefined ? '' : argv[bin]!.text;
  if (!(named === FLEET_PACKAGE || named.startsWith(`${FLEET_PACKAGE}@`) || CLI_BY_NAME.test(named))) return undefined;
  // `npm exec fleet -- resume`: the runner's `--` hands the rest to the bin.
  const rest = argv.slice(bin! + 1);
  return rest[0]?.text === '--' ? rest.slice(1) : rest;
}

/** The index of the first word from `from` that is not an option (or an option's value). */
function firstOperand(argv: readonly ShellWord[], from: number): number | undefined {
  for (let i = from; i < argv.length; i++) {
    const text = argv[i]!.text;
    if (text === '--') return i + 1 < argv.length ? i + 1 : undefined;
    if (!text.startsWith('-') || text === '-') return i;
    if (RUNNER_VALUE_OPTIONS.includes(text)) i++;
  }
  return undefined;
}

/** Whether the file at `path` (relative to cwd) starts the fleet CLI. */
function startsCli(path: string, cwd: string, homes: readonly string[], local: boolean, depth = 0): boolean {
  if (!local) return CLI_BY_NAME.test(path);
  let real: string;
  try {
    real = realpathSync(isAbsolute(path) ? path : resolve(cwd, path));
  } catch {
    return CLI_BY_NAME.test(path);
  }
  if (homes.some((home) => real === join(home, 'bin', 'fleet'))) return true;
  if (isPackageEntry(real)) return true;
  // A launcher (FLEET_HOME/bin/fleet, or a copy): a short script that execs an entry point.
  return depth === 0 && launcherTargets(real).some((target) => startsCli(target, dirname(real), homes, local, depth + 1));
}

/** A file the nearest package.json above it names as the fleet package's bin, or one of its CLI entries. */
function isPackageEntry(file: string): boolean {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    let manifest: { name?: unknown; bin?: unknown };
    try {
      manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as typeof manifest;
    } catch {
      continue;
    }
    if (manifest.name !== FLEET_PACKAGE) return false;
    const bins = typeof manifest.bin === 'string' ? [manifest.bin] : typeof manifest.bin === 'object' && manifest.bin !== null ? Object.values(manifest.bin) : [];
    const inside = relative(dir, file).split('\\').join('/');
    return [...bins, ...CLI_ENTRIES].some((entry) => typeof entry === 'string' && join(entry) === join(inside));
  }
  return false;
}

/** The absolute paths a short script names (quoted or not): what a launcher may exec. */
function launcherTargets(file: string): string[] {
  let head: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(LAUNCHER_HEAD_BYTES);
      head = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
  if (!head.startsWith('#!') || head.includes('\0')) return [];
  return [...head.matchAll(/(?:'([^']+)'|"([^"]+)"|(\/[^\s'";|&]+))/g)].map((m) => m[1] ?? m[2] ?? m[3]!).filter((path) => isAbsolute(path));
}
