import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { fleetHome } from '../../contracts/defaults.js';

/** FLEET_HOME as every verb resolves it (zod-free: `fleet mcp` and `fleet hook` start without the contracts). */
export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(fleetHome(env.FLEET_HOME, homedir()));
}
