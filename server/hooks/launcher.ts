import { chmodSync, existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The stable launcher DESIGN §2 names: hooks and the configs of `fleet init` call it. */
export function launcherPath(home: string): string {
  return join(home, 'bin', process.platform === 'win32' ? 'fleet.cmd' : 'fleet');
}

/**
 * Makes sure FLEET_HOME/bin/fleet exists. The VS Code extension installs (and updates) its own;
 * where none exists yet, this writes one that runs this checkout's CLI with this Node. An existing
 * launcher is never replaced. Returns its path and whether it was written now.
 */
export function ensureLauncher(home: string): { path: string; created: boolean } {
  const path = launcherPath(home);
  if (existsSync(path)) return { path, created: false };
  const cli = cliEntry();
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  mkdirSync(join(home, 'bin'), { recursive: true, mode: 0o700 });
  writeFileSync(
    path,
    process.platform === 'win32'
      ? `@echo off\r\nrem Written by fleet install-hooks / fleet init; the VS Code extension replaces it with its own.\r\n"${process.execPath}" "${cli}" %*\r\n`
      : `#!/bin/sh\n# Written by fleet install-hooks / fleet init; the VS Code extension replaces it with its own.\nexec ${quote(process.execPath)} ${quote(cli)} "$@"\n`,
    { mode: 0o755 },
  );
  chmodSync(path, 0o755);
  return { path, created: true };
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
