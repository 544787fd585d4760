// The options of a desktop VS Code run (@vscode/test-electron): the same extension and the same
// tests module as the code-server tier, in a VS Code that @vscode/test-electron downloads (or one
// already installed), with its user data and extensions in a temp folder. Pure, so it is tested
// here, where no desktop VS Code can be downloaded.
import { join } from 'node:path';
import type { TestOptions } from '@vscode/test-electron';

export interface DesktopRunInput {
  /** The VS Code to download ("stable", "insiders" or a version); ignored with an executable. */
  version: string;
  /** A VS Code already on this machine (FLEET_VSCODE_DESKTOP_EXECUTABLE): nothing is downloaded. */
  executable?: string;
  /** The extension under development (its package.json is the manifest). */
  extensionPath: string;
  /** The bundled in-host tests module, the one the code-server tier runs. */
  testsPath: string;
  workspace: string;
  /** Holds the user data and extensions folders of this run (removed afterwards by the caller). */
  tempDir: string;
  /** Where downloaded VS Code builds are kept between runs. */
  cachePath: string;
  /** What the tests module reads (FLEET_HOME, FLEET_TEST_WORKSPACE, ...). */
  env: Record<string, string>;
}

export function desktopTestOptions(input: DesktopRunInput): TestOptions {
  return {
    ...(input.executable ? { vscodeExecutablePath: input.executable } : { version: input.version, cachePath: input.cachePath }),
    extensionDevelopmentPath: input.extensionPath,
    extensionTestsPath: input.testsPath,
    extensionTestsEnv: { ...input.env },
    launchArgs: [
      input.workspace,
      `--user-data-dir=${userDataDir(input.tempDir)}`,
      `--extensions-dir=${join(input.tempDir, 'extensions')}`,
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
      '--disable-telemetry',
    ],
  };
}

/** The user data folder of a run: its User/settings.json is written before VS Code starts. */
export function userDataDir(tempDir: string): string {
  return join(tempDir, 'user-data');
}
