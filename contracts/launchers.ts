// The launchers in FLEET_HOME/bin (DESIGN §2) as both their writers name them: the CLI
// (server/hooks/launcher.ts) and the VS Code extension (extension/src/launcher.ts).

/** bin/fleet runs the CLI; bin/fleet-hook runs the lean hook runner the Claude Code hook calls. */
export function launcherFileName(which: 'fleet' | 'fleet-hook', platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? `${which}.cmd` : which;
}

/** The lean hook runner's bundle, beside the CLI bundle dist/fleet.cjs (tools/bundle.mjs writes both). */
export const HOOK_RUNNER_BUNDLE = 'fleet-hook.cjs';
