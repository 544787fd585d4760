import { FleetError } from '../../contracts/index.js';
import type { Caller, Credential } from './context.js';
import type { AgentRecord, State } from './state.js';

/** The agent behind a caller that must be a joined agent. */
export function requireAgent(state: State, caller: Caller): AgentRecord {
  if (caller.kind !== 'agent') throw new FleetError('NOT_JOINED', 'this call acts as an agent: call fleet_agent_join first (CLI: --as CALLSIGN)');
  const agent = state.agents.get(caller.agentId);
  if (!agent || agent.gone) {
    throw new FleetError('NOT_JOINED', `agent ${agent?.callsign ?? caller.agentId} has ${agent?.gone ?? 'not joined'}: join again (with your sessionToken to keep your identity)`);
  }
  return agent;
}

export function isOperator(state: State, caller: Caller): boolean {
  return caller.kind === 'operator' || (caller.kind === 'agent' && state.agents.get(caller.agentId)?.role === 'operator');
}

export function isRteOrOperator(state: State, caller: Caller): boolean {
  return isOperator(state, caller) || (caller.kind === 'agent' && state.agents.get(caller.agentId)?.role === 'rte');
}

/** The name recorded as `by` on events: a callsign, the person's name, or that nobody joined. */
export function actorName(state: State, caller: Caller): string {
  if (caller.kind === 'unjoined') return 'unjoined client';
  return caller.kind === 'operator' ? caller.name : (state.agents.get(caller.agentId)?.callsign ?? caller.agentId);
}

/**
 * Role operator belongs to the person, so it is taken (and re-taken with a session token) only on a
 * connection that presented the operator credential: a model holding the plane token, or a stolen
 * session token, never becomes the operator.
 */
export function assertMayActAsOperator(role: string | undefined, credential: Credential, callsign: string): void {
  if (role !== 'operator' || credential === 'operator') return;
  throw new FleetError(
    'FORBIDDEN',
    `${callsign} has role operator, which only the person's tools take (the CLI, the editor), with the operator credential: join as worker, builder, verifier or rte`,
    { callsign },
  );
}
