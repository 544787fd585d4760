import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';

/**
 * Why `home` cannot be this window's FLEET_HOME, in words the person acts on (undefined: it can).
 * A relative path would put a plane wherever VS Code happened to start, and a file where the
 * folder goes would fail with a bare EEXIST from deep inside the plane's start.
 */
export function homeProblem(home: string): string | undefined {
  if (!isAbsolute(home)) {
    return `FLEET_HOME "${home}" is a relative path: set the fleet.home setting (or FLEET_HOME) to an absolute folder, such as ~/.fleet, so every window and agent finds the same plane.`;
  }
  try {
    if (!statSync(home).isDirectory()) return `FLEET_HOME ${home} is a file, not a folder: point the fleet.home setting (or FLEET_HOME) at a folder, or move the file away, then run "Fleet: Connect to the Plane".`;
  } catch {
    // Not there yet: the plane makes it.
  }
  return undefined;
}
