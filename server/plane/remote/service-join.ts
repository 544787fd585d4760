import { FleetError, type ParsedParams } from '../../../contracts/index.js';
import type { ServiceCredential } from '../../core/context.js';
import type { ServiceTokens } from './service-tokens.js';

/**
 * A join over the TLS listener: the service token decides who the agent is (its callsign, its
 * role), never the request. A remote agent's pid and worktree are not this machine's, so they are
 * refused rather than watched or signalled; its tier defaults to `edge`. The session token is
 * derived for the callsign, so a reconnect (or a rotated token) re-attaches the same agent.
 */
export function serviceJoin(params: ParsedParams<'fleet_agent_join'>, credential: ServiceCredential, tokens: ServiceTokens): ParsedParams<'fleet_agent_join'> {
  if (params.callsign !== credential.callsign) {
    throw new FleetError('FORBIDDEN', `this service token acts only as ${credential.callsign}, not ${params.callsign}: join with callsign ${credential.callsign}, or ask the operator for a token of your own`, { callsign: params.callsign });
  }
  if (params.role !== undefined && params.role !== credential.role) {
    throw new FleetError('FORBIDDEN', `this service token gives ${credential.callsign} role ${credential.role}, not ${params.role}: leave role out, or ask the operator for a token with that role (never operator)`, { callsign: params.callsign });
  }
  for (const local of ['pid', 'worktree'] as const) {
    if (params[local] !== undefined) throw new FleetError('INVALID_PARAMS', `fleet_agent_join: ${local} names something on your machine, not the plane's: a remote agent leaves ${local} out`);
  }
  return { ...params, role: credential.role, tier: params.tier ?? 'edge', sessionToken: params.sessionToken ?? tokens.sessionTokenFor(credential.callsign) };
}
