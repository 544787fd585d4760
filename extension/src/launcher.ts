import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Installs the stable launcher FLEET_HOME/bin/fleet (DESIGN §2): terminal agents, hooks and the
 * configs `fleet init` writes call this path, and it always runs the CLI bundled with the installed
 * version of the extension, so they keep working across extension updates. Rewritten only when
 * its content changes. Returns the launcher's path.
 */
export async function installLauncher(home: string, cliEntry: string, nodeBinary: string): Promise<string> {
  const bin = join(home, 'bin');
  const windows = process.platform === 'win32';
  const path = join(bin, windows ? 'fleet.cmd' : 'fleet');
  // In desktop VS Code the binary is Electron; ELECTRON_RUN_AS_NODE makes it a plain Node.
  const content = windows
    ? `@echo off\r\nrem Written by the Fleet Coordination VS Code extension; rewritten when it updates.\r\nset ELECTRON_RUN_AS_NODE=1\r\n"${nodeBinary}" "${cliEntry}" %*\r\n`
    : `#!/bin/sh\n# Written by the Fleet Coordination VS Code extension; rewritten when it updates.\nELECTRON_RUN_AS_NODE=1 exec '${nodeBinary.replace(/'/g, `'\\''`)}' '${cliEntry.replace(/'/g, `'\\''`)}' "$@"\n`;
  const existing = await readFile(path, 'utf8').catch(() => undefined);
  if (existing !== content) {
    await mkdir(bin, { recursive: true, mode: 0o700 });
    await writeFile(path, content, { mode: 0o755 });
    await chmod(path, 0o755);
  }
  return path;
}
