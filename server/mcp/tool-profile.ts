import type { MethodName } from '../../contracts/index.js';

/**
 * Which of the method table's MCP tools the bridge offers. Every tool's definition sits in every
 * agent's context, so `lean` (FLEET_MCP_TOOLS=lean) keeps only what one work loop needs: join,
 * claim, check, release, pull, update, inbox, message, handoff, leave and the switch.
 */
export type ToolProfile = 'default' | 'lean';

export const LEAN_TOOLS: ReadonlySet<MethodName> = new Set<MethodName>([
  'fleet_agent_join',
  'fleet_claim_path',
  'fleet_check_path',
  'fleet_release_path',
  'fleet_work_pull',
  'fleet_work_update',
  'fleet_inbox',
  'fleet_message_send',
  'fleet_agent_handoff',
  'fleet_agent_leave',
  'fleet_control_get',
]);

export const PROFILES: readonly ToolProfile[] = ['default', 'lean'];

/** FLEET_MCP_TOOLS as a profile; anything else is refused at start-up, naming the choices. */
export function toolProfileFrom(env: NodeJS.ProcessEnv): ToolProfile {
  const value = env.FLEET_MCP_TOOLS?.trim() || 'default';
  if ((PROFILES as readonly string[]).includes(value)) return value as ToolProfile;
  throw new Error(`FLEET_MCP_TOOLS="${value}" is not a tool profile: use "default" (the 24 pinned tools) or "lean" (${[...LEAN_TOOLS].join(', ')})`);
}

export function offersTool(profile: ToolProfile, name: string): boolean {
  return profile === 'default' || LEAN_TOOLS.has(name as MethodName);
}
