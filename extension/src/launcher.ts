import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { HOOK_FRONT_FILE, HOOK_FRONT_SCRIPT } from '../../contracts/hook-front.js';
import { HOOK_RUNNER_BUNDLE, launcherFileName } from '../../contracts/launchers.js';

/**
 * Installs the stable launcher FLEET_HOME/bin/fleet (DESIGN §2): terminal agents, hooks and the
 * configs `fleet init` writes call this path, and it always runs the CLI bundled with the installed
 * version of the extension, so they keep working across extension updates. Beside it goes
 * bin/fleet-hook, which runs the lean hook runner bundled beside that CLI (the installed hooks
 * call it), and on POSIX bin/fleet-hook-front, the PreToolUse hooks' fast path in front of it.
 * Each is rewritten only when its content changes. Returns bin/fleet's path.
 */
export async function installLauncher(home: string, cliEntry: string, nodeBinary: string): Promise<string> {
  const bin = join(home, 'bin');
  const path = join(bin, launcherFileName('fleet'));
  await mkdir(bin, { recursive: true, mode: 0o700 });
  await writeLauncher(path, cliEntry, nodeBinary);
  await writeLauncher(join(bin, launcherFileName('fleet-hook')), join(dirname(cliEntry), HOOK_RUNNER_BUNDLE), nodeBinary);
  if (process.platform !== 'win32') await writeIfChanged(join(bin, HOOK_FRONT_FILE), HOOK_FRONT_SCRIPT);
  return path;
}

async function writeLauncher(path: string, script: string, nodeBinary: string): Promise<void> {
  // In desktop VS Code the binary is Electron; ELECTRON_RUN_AS_NODE makes it a plain Node.
  const content =
    process.platform === 'win32'
      ? `@echo off\r\nrem Written by the Fleet Coordination VS Code extension; rewritten when it updates.\r\nset ELECTRON_RUN_AS_NODE=1\r\n"${nodeBinary}" "${script}" %*\r\n`
      : `#!/bin/sh\n# Written by the Fleet Coordination VS Code extension; rewritten when it updates.\nELECTRON_RUN_AS_NODE=1 exec '${nodeBinary.replace(/'/g, `'\\''`)}' '${script.replace(/'/g, `'\\''`)}' "$@"\n`;
  await writeIfChanged(path, content);
}

/** An executable written only when its content changes. */
async function writeIfChanged(path: string, content: string): Promise<void> {
  const existing = await readFile(path, 'utf8').catch(() => undefined);
  if (existing === content) return;
  await writeFile(path, content, { mode: 0o755 });
  await chmod(path, 0o755);
}
