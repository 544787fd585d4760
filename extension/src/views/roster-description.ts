import type { ViewAgent } from '../../../contracts/lsp.js';
import { since } from './relative-time.js';

/** What the agent is doing now: an idle agent's finished task is history, not activity. */
function activity(agent: ViewAgent): string {
  switch (agent.status) {
    case 'active':
      return agent.task ?? 'active';
    case 'blocked':
      return `blocked${agent.note ? `: ${agent.note}` : ''}`;
    case 'unknown':
    case 'stalled':
      return `no heartbeat ${since(agent.lastSeenAt)}`;
    default:
      return agent.status;
  }
}

export function claimCount(agent: ViewAgent): string {
  return `${agent.claimCount} claim${agent.claimCount === 1 ? '' : 's'}`;
}

/**
 * A roster row's description: its claim count, then what the agent does now. The count goes first
 * because VS Code cuts a long description at the sidebar's edge, and a task can be any length; the
 * mark, runtime and times are in the tooltip (and the mark on its Territory row).
 */
export function rosterDescription(agent: ViewAgent): string {
  return [agent.claimCount > 0 ? claimCount(agent) : undefined, activity(agent)].filter(Boolean).join(' · ');
}
