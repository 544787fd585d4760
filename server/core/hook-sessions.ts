import type { FleetEvent } from '../../contracts/index.js';
import type { Ctx } from './context.js';
import type { AgentRecord, State } from './state.js';

/**
 * Runtime sessions bound to an agent (DESIGN §11: who is writing is FLEET_AS, else the agent bound
 * to the hook's session_id, else the worktree's agent). SessionStart binds the payload's session_id
 * to the agent it joined or re-attached, so two agents sharing one worktree are told apart by their
 * sessions. Bindings are events (they survive a restart), one agent per session, at most this many
 * per agent (a compaction or /clear may start a new one; the oldest go), and a gone agent's go with it.
 */
export const MAX_HOOK_SESSIONS_PER_AGENT = 8;

type HookSessionEvent = Extract<FleetEvent, { type: 'agent.session_bound' | 'agent.session_unbound' }>;

/** The live agent this runtime session speaks for, if its SessionStart bound one. */
export function agentOfHookSession(state: State, sessionId: string): AgentRecord | undefined {
  for (const agent of state.agents.values()) {
    if (!agent.gone && agent.hookSessions?.includes(sessionId)) return agent;
  }
  return undefined;
}

/** Binds the session to `agent` (taking it from any other); nothing is recorded when it already is. */
export function bindHookSession(ctx: Ctx, agent: AgentRecord, sessionId: string): boolean {
  if (agent.hookSessions?.at(-1) === sessionId) return false;
  ctx.emit({ type: 'agent.session_bound', by: agent.callsign, agentId: agent.agentId, sessionId });
  return true;
}

/** Ends the binding of the session to `agent`; false when it was not bound to it. */
export function unbindHookSession(ctx: Ctx, agent: AgentRecord, sessionId: string): boolean {
  if (!agent.hookSessions?.includes(sessionId)) return false;
  ctx.emit({ type: 'agent.session_unbound', by: agent.callsign, agentId: agent.agentId, sessionId });
  return true;
}

/** The reducer's part: one agent per session, the newest binding last, bounded per agent. */
export function applyHookSessionEvent(state: State, event: HookSessionEvent): void {
  const agent = state.agents.get(event.agentId);
  if (event.type === 'agent.session_unbound') {
    if (agent?.hookSessions) agent.hookSessions = agent.hookSessions.filter((id) => id !== event.sessionId);
    return;
  }
  for (const other of state.agents.values()) {
    if (other.hookSessions?.includes(event.sessionId)) other.hookSessions = other.hookSessions.filter((id) => id !== event.sessionId);
  }
  if (!agent || agent.gone) return;
  agent.hookSessions = [...(agent.hookSessions ?? []), event.sessionId].slice(-MAX_HOOK_SESSIONS_PER_AGENT);
}
