import type { FleetEvent, PersonWait } from '../../contracts/index.js';
import type { Ctx } from './context.js';
import type { AgentRecord, State } from './state.js';

/**
 * An agent whose runtime waits for a person: its Notification (Claude Code) or PermissionRequest
 * (Codex) hook says so, and the operator sees it beside escalations and decisions. The wait ends
 * when the runtime goes on: its next tool call reaches a hook check. Events, so the digest and a
 * restarted plane tell it too; a repeat of the same wait records nothing.
 */
type PersonWaitEvent = Extract<FleetEvent, { type: 'agent.waiting' | 'agent.wait_ended' }>;

export function recordWait(ctx: Ctx, agent: AgentRecord, wait: PersonWait): boolean {
  const held = agent.waiting;
  if (held && held.reason === wait.reason && held.message === wait.message && held.tool === wait.tool) return false;
  ctx.emit({ type: 'agent.waiting', by: agent.callsign, agentId: agent.agentId, ...wait });
  return true;
}

/** The runtime went on (a hook checked its next call): nobody waits any more. */
export function endWait(ctx: Ctx, agent: AgentRecord): void {
  if (agent.waiting) ctx.emit({ type: 'agent.wait_ended', by: agent.callsign, agentId: agent.agentId });
}

export function applyPersonWaitEvent(state: State, event: PersonWaitEvent): void {
  const agent = state.agents.get(event.agentId);
  if (!agent || agent.gone) return;
  if (event.type === 'agent.wait_ended') {
    agent.waiting = undefined;
    return;
  }
  const { hook, reason, message, tool } = event;
  agent.waiting = { hook, reason, message, ...(tool !== undefined && { tool }), since: event.at };
}

/** The waits of the live agents, oldest first. */
export function personWaits(state: State): { agent: AgentRecord; wait: NonNullable<AgentRecord['waiting']> }[] {
  return [...state.agents.values()]
    .flatMap((agent) => (agent.waiting && !agent.gone ? [{ agent, wait: agent.waiting }] : []))
    .sort((a, b) => a.wait.since - b.wait.since);
}
