/** FLEET_AGENT_TTL when unset: silent this long an agent is `unknown`, twice this long expired (DESIGN §3). */
export const DEFAULT_AGENT_TTL_SECONDS = 120;

/**
 * FLEET_PLANE_DEATH_TTL when unset: on a shared log, an agent whose own plane stopped logging is held
 * (`stalled`) this long after the plane's last word, not expired at its TTL: a plane cut off from the
 * store cannot relay its agents' calls. Past it the plane counts as dead and its agents expire.
 */
export const DEFAULT_PLANE_DEATH_TTL_SECONDS = 1800;

/** FLEET_EDGE_TTL when unset: the agent TTL of tier `edge` (cloud agents, CI over a WAN: DESIGN §13). */
export const DEFAULT_EDGE_TTL_SECONDS = 600;

/**
 * The FLEET_HOME every part uses (plane, CLI, language server, extension): the variable, else
 * `.fleet` in the user's home. Unset, empty and blank are the same, so `FLEET_HOME=` never means
 * "the current directory". Callers pass their home directory and resolve the result.
 */
export function fleetHome(configured: string | undefined, userHome: string): string {
  const home = configured?.trim();
  return home ? home : `${userHome}/.fleet`;
}
