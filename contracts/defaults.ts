/** FLEET_AGENT_TTL when unset: silent this long an agent is `unknown`, twice this long expired (DESIGN §3). */
export const DEFAULT_AGENT_TTL_SECONDS = 120;

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
